import CStradaPlugin
import Foundation
import StradaCore
import TestSupport
import Testing

@testable import StradaPluginHost

/// The Swift mirror of `SDK/CStradaPlugin/layout_checks.c`: every struct of every header, every field's offset,
/// as Swift imports them; and the headers compiled with strict flags as C11 and C++17.
@Suite(.temporaryDirectories)
struct ABILayoutTests {
    /// A field's offset as Swift lays the imported struct out.
    static func offset<T>(_ field: PartialKeyPath<T>) -> Int? { MemoryLayout<T>.offset(of: field) }

    @Test func stradaStringMatchesThePinnedCLayout() {
        #expect(MemoryLayout<strada_string>.size == 16)
        #expect(Self.offset(\strada_string.data) == 0)
        #expect(Self.offset(\strada_string.length) == 8)
    }

    @Test func buttonMatchesThePinnedCLayout() {
        #expect(MemoryLayout<strada_button_v1>.size == 64)
        #expect(MemoryLayout<strada_button_style>.size == 1)
        let fields: [(PartialKeyPath<strada_button_v1>, Int)] = [
            (\.struct_size, 0), (\.placement, 4), (\.id, 8), (\.title, 24), (\.icon_name, 40), (\.enabled, 56),
            (\.style, 57), (\.reserved, 58),
        ]
        for (field, offset) in fields { #expect(Self.offset(field) == offset, "\(field)") }
    }

    @Test func hostTableMatchesThePinnedCLayout() {
        #expect(MemoryLayout<strada_host_api_v1>.size == 88)
        let fields: [(PartialKeyPath<strada_host_api_v1>, Int)] = [
            (\.struct_size, 0), (\.abi_major, 4), (\.abi_minor, 8), (\.reserved, 12), (\.host_context, 16),
            (\.reply, 24), (\.log, 32), (\.codec_settings_json, 40), (\.run_on_main_thread, 48), (\.set_button, 56),
            (\.remove_button, 64), (\.get_extension, 72), (\.reply_to_event, 80),
        ]
        for (field, offset) in fields { #expect(Self.offset(field) == offset, "\(field)") }
    }

    @Test func pluginDescriptionMatchesThePinnedCLayout() {
        #expect(MemoryLayout<strada_plugin_v1>.size == 104)
        let fields: [(PartialKeyPath<strada_plugin_v1>, Int)] = [
            (\.struct_size, 0), (\.abi_major, 4), (\.abi_minor, 8), (\.component_count, 12), (\.plugin_id, 16),
            (\.plugin_version, 24), (\.component_names, 32), (\.plugin_context, 40), (\.create_instance, 48),
            (\.receive, 56), (\.lifecycle, 64), (\.control_activated, 72), (\.destroy_instance, 80),
            (\.shutdown, 88), (\.get_extension, 96),
        ]
        for (field, offset) in fields { #expect(Self.offset(field) == offset, "\(field)") }
    }

    @Test func extensionTablesMatchThePinnedCLayout() {
        #expect(MemoryLayout<strada_controls_v1>.size == 24)
        let controls: [(PartialKeyPath<strada_controls_v1>, Int)] = [
            (\.struct_size, 0), (\.reserved, 4), (\.show, 8), (\.remove, 16),
        ]
        for (field, offset) in controls { #expect(Self.offset(field) == offset, "\(field)") }

        #expect(MemoryLayout<strada_control_events_v1>.size == 16)
        let events: [(PartialKeyPath<strada_control_events_v1>, Int)] = [
            (\.struct_size, 0), (\.reserved, 4), (\.control_event, 8),
        ]
        for (field, offset) in events { #expect(Self.offset(field) == offset, "\(field)") }

        #expect(MemoryLayout<strada_gtk_handles_v1>.size == 32)
        let handles: [(PartialKeyPath<strada_gtk_handles_v1>, Int)] = [
            (\.struct_size, 0), (\.reserved, 4), (\.window, 8), (\.header_bar, 16), (\.web_view, 24),
        ]
        for (field, offset) in handles { #expect(Self.offset(field) == offset, "\(field)") }

        #expect(MemoryLayout<strada_parsed_messages_v1>.size == 16)
        let parsed: [(PartialKeyPath<strada_parsed_messages_v1>, Int)] = [
            (\.struct_size, 0), (\.reserved, 4), (\.receive_message, 8),
        ]
        for (field, offset) in parsed { #expect(Self.offset(field) == offset, "\(field)") }

        #expect(MemoryLayout<strada_message_v1>.size == 104)
        let message: [(PartialKeyPath<strada_message_v1>, Int)] = [
            (\.struct_size, 0), (\.flags, 4), (\.wire_json, 8), (\.id, 24), (\.component, 40), (\.event, 56),
            (\.data_json, 72), (\.metadata_url, 88),
        ]
        for (field, offset) in message { #expect(Self.offset(field) == offset, "\(field)") }

        #expect(MemoryLayout<strada_screens_v1>.size == 32)
        let screens: [(PartialKeyPath<strada_screens_v1>, Int)] = [
            (\.struct_size, 0), (\.screen_count, 4), (\.screen_names, 8), (\.create_screen, 16),
            (\.destroy_screen, 24),
        ]
        for (field, offset) in screens { #expect(Self.offset(field) == offset, "\(field)") }
    }

    /// ABI 1.x is 1.0 plus appended fields: each 1.0 minimum is where the struct's 1.0 fields end, and (typed
    /// `UInt32`, like `struct_size`) compares with `struct_size` without a conversion.
    @Test func theMinimumSizesAreABI10sSizes() {
        let minimums: [(UInt32, Int)] = [
            (STRADA_BUTTON_V1_MIN_SIZE_1_0, MemoryLayout<strada_button_v1>.size),
            (STRADA_HOST_API_V1_MIN_SIZE_1_0, MemoryLayout<strada_host_api_v1>.size),
            (STRADA_PLUGIN_V1_MIN_SIZE_1_0, MemoryLayout<strada_plugin_v1>.size),
            (STRADA_CONTROLS_V1_MIN_SIZE_1_0, MemoryLayout<strada_controls_v1>.size),
            (STRADA_CONTROL_EVENTS_V1_MIN_SIZE_1_0, MemoryLayout<strada_control_events_v1>.size),
            (STRADA_GTK_HANDLES_V1_MIN_SIZE_1_0, MemoryLayout<strada_gtk_handles_v1>.size),
            (STRADA_SCREENS_V1_MIN_SIZE_1_0, MemoryLayout<strada_screens_v1>.size),
            (STRADA_MESSAGE_V1_MIN_SIZE_1_0, MemoryLayout<strada_message_v1>.size),
            (STRADA_PARSED_MESSAGES_V1_MIN_SIZE_1_0, MemoryLayout<strada_parsed_messages_v1>.size),
        ]
        #expect(minimums.map { Int($0.0) } == [64, 88, 104, 24, 16, 32, 32, 104, 16])
        // ABI 1.0 itself: the structs are exactly their minimum. A 1.1 header makes them larger, never smaller.
        for (minimum, size) in minimums { #expect(size >= Int(minimum)) }
        #expect(STRADA_PLUGIN_ABI_MINOR != 0 || minimums.allSatisfy { Int($0.0) == $0.1 })
    }

    /// The header promises `codec_settings_json` is never NULL; its static fallback is the default settings.
    @Test func theCodecFallbackIsTheDefaultSettings() {
        #expect(HostAPI.defaultCodecSettings.description == CodecSettings().json)
    }

    static let headers = ["strada_plugin.h", "strada_controls.h", "strada_screens.h", "strada_json.h"]

    /// Every header alone (it includes what it needs), all of them together, and the layout pins, with
    /// `-Wall -Wextra -pedantic -Werror`, as C11 and as C++17.
    @Test(arguments: [("cc", ["-std=c11", "-x", "c"]), ("c++", ["-std=c++17", "-x", "c++"])])
    func everyHeaderAndTheLayoutPinsCompileCleanly(compiler: String, flags: [String]) throws {
        let directory = try TemporaryDirectory.make("header-check")
        var files = [Repository.path("SDK/CStradaPlugin/layout_checks.c")]
        let programs = Self.headers.map { [$0] } + [Self.headers, Self.headers.reversed()]
        for (index, included) in programs.enumerated() {
            let file = (directory as NSString).appendingPathComponent("check\(index).c")
            let source =
                included.map { "#include \"\($0)\"\n" }.joined()
                + "#include \"\(included[0])\"\n"  // twice: the include guards hold
                + "int main(void) { return 0; }\n"
            try source.write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        for file in files {
            let strict = flags + ["-Wall", "-Wextra", "-pedantic", "-Werror"]
            let result = try CCompiler.check(file, compiler: compiler, flags: strict)
            #expect(result.status == 0, "\(compiler) \(flags) \(file): \(result.stderr)")
        }
    }
}
