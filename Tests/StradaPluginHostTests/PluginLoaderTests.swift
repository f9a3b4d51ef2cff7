import CStradaPlugin
import Foundation
import Logging
import StradaCore
import TestSupport
import Testing

@testable import StradaPluginHost

/// Loads real shared libraries with dlopen: the form plugin built by this package, and small C libraries
/// compiled by the test with `cc`.
@MainActor
@Suite(.serialized, .temporaryDirectories)
struct PluginLoaderTests {
    let loader = PluginLoader(logger: Logger(label: "test"))
    let directory: String

    init() throws {
        directory = try TemporaryDirectory.make("libraries")
    }

    /// Compiles the C `source` into `name` in this test's directory and returns its path.
    @discardableResult
    func library(_ name: String, source: String) throws -> String {
        let path = (directory as NSString).appendingPathComponent(name)
        try CCompiler.sharedLibrary(source, at: path)
        return path
    }

    /// A complete plugin in plain C against the header only: proves the ABI needs no Swift.
    static let cPlugin = """
        #include "strada_plugin.h"
        static const char *names[] = {"echo"};
        static strada_plugin_instance *create(void *context, const char *name, strada_host_instance *host) {
            (void)context; (void)name; return (strada_plugin_instance *)host;
        }
        static void receive(strada_plugin_instance *instance, strada_string json) { (void)instance; (void)json; }
        static void destroy(strada_plugin_instance *instance) { (void)instance; }
        static const strada_plugin_v1 plugin = {
            sizeof(strada_plugin_v1), STRADA_PLUGIN_ABI_MAJOR, STRADA_PLUGIN_ABI_MINOR, 1,
            "dev.test.echo", "0.1.0", names, 0, create, receive, 0, 0, destroy, 0, 0 };
        STRADA_PLUGIN_ENTRY_V1_DEFINE { (void)host; *out_plugin = &plugin; return STRADA_OK; }
        """

    @Test func loadsAPluginWrittenInPlainC() throws {
        let path = try library("libecho.so", source: Self.cPlugin)
        let report = loader.load(directories: [directory])
        #expect(report.errors.isEmpty)
        let plugin = try #require(report.plugins.first)
        #expect(plugin.path == path)
        #expect(plugin.id == "dev.test.echo")
        #expect(plugin.version == "0.1.0")
        #expect(plugin.componentNames == ["echo"])
    }

    @Test func aFileThatIsNotAPluginGetsOneLineNamingItAndTheOthersStillLoad() throws {
        try library("libecho.so", source: Self.cPlugin)
        let notes = (directory as NSString).appendingPathComponent("notes.txt")
        try "not a plugin".write(toFile: notes, atomically: true, encoding: .utf8)
        let report = loader.load(directories: [directory])
        #expect(report.componentNames == ["echo"])
        #expect(
            report.errors.map(\.description) == [
                "plugin \(notes): not a shared library (no ELF header) — remove it from the plugins directory"
            ])
    }

    @Test func aSharedLibraryWithoutTheEntrySymbolIsRefusedWithOneLine() throws {
        try library("libecho.so", source: Self.cPlugin)
        let path = try library("libplain.so", source: "int plain_function(void) { return 1; }")
        let report = loader.load(directories: [directory])
        #expect(report.componentNames == ["echo"])
        #expect(
            report.errors.map(\.description) == [
                "plugin \(path): no strada_plugin_entry_v1 symbol, so it is not a Strada plugin — export it with "
                    + "the SDK (StradaPlugin.export / STRADA_PLUGIN_ENTRY_V1_DEFINE), or remove the file"
            ])
    }

    @Test func twoPluginsClaimingOneComponentNameKeepTheFirstByFileName() throws {
        try library("liba.so", source: Self.cPlugin)
        try library("libb.so", source: Self.cPlugin)
        let report = loader.load(directories: [directory])
        #expect(report.conflicts == ["echo"])
        #expect(report.componentNames == ["echo"])
        #expect(report.plugins.first?.path.hasSuffix("liba.so") == true)
    }

    @Test func theWarningAboutAComponentClaimedTwiceSaysWhatToDo() throws {
        let a = try library("liba.so", source: Self.cPlugin)
        let b = try library("libb.so", source: Self.cPlugin)
        let lines = WarningLines()
        _ = PluginLoader(logger: Logger(label: "test") { _ in lines }).load(directories: [directory])
        #expect(
            lines.text == [
                "component \"echo\" is provided by \(a) and \(b); using \(a) — remove one of the two files from the "
                    + "plugins folders, or rename the component in one"
            ])
    }

    @Test func aPluginBuiltForAnotherABIMajorIsRefusedWithWhatToDo() throws {
        let path = try library(
            "libfuture.so", source: "int strada_plugin_entry_v2(void *h, void *p) { (void)h; (void)p; return 0; }")
        let report = loader.load(directories: [directory])
        #expect(report.plugins.isEmpty)
        #expect(
            report.errors.map(\.description) == [
                "plugin \(path): built for plugin ABI 2, this host speaks ABI 1 — rebuild it against SDK 1.x, or "
                    + "use a host that speaks ABI 2"
            ])
    }

    @Test func anEntryPointThatFailsIsRefused() throws {
        let path = try library(
            "librefuses.so",
            source: """
                #include "strada_plugin.h"
                STRADA_PLUGIN_ENTRY_V1_DEFINE { (void)host; (void)out_plugin; return STRADA_ERR_FAILED; }
                """)
        let report = loader.load(directories: [directory])
        #expect(
            report.errors.map(\.description) == [
                "plugin \(path): its entry point refused to load (status -5) — see the plugin's own log line above"
            ])
    }

    @Test func aPluginBuiltForANewerMinorIsRefused() throws {
        let path = try library(
            "libnewer.so",
            source: Self.cPlugin.replacingOccurrences(
                of: "STRADA_PLUGIN_ABI_MAJOR, STRADA_PLUGIN_ABI_MINOR, 1",
                with: "STRADA_PLUGIN_ABI_MAJOR, STRADA_PLUGIN_ABI_MINOR + 1, 1"))
        let report = loader.load(directories: [directory])
        #expect(
            report.errors.map(\.description) == [
                "plugin \(path): built for ABI 1.1, this host speaks 1.0 — update the host, or rebuild the plugin "
                    + "against SDK 1.0"
            ])
    }

    /// The "Names" rules of strada_plugin.h: component names go into the user agent and prefix control ids.
    @Test(arguments: [
        (#"{"echo two"}"#, #"component name "echo two" is not "# + PluginNames.componentNameRule),
        (#"{"form.x"}"#, #"component name "form.x" is not "# + PluginNames.componentNameRule),
        (#"{"2fa"}"#, #"component name "2fa" is not "# + PluginNames.componentNameRule),
        (#"{"echo", 0}"#, "component name 1 is missing or not UTF-8"),
    ])
    func aComponentNameBreakingTheRulesIsRefused(names: String, problem: String) throws {
        let count = names.hasSuffix(", 0}") ? "2" : "1"
        let path = try library(
            "libnames.so",
            source: Self.cPlugin
                .replacingOccurrences(of: #"names[] = {"echo"}"#, with: "names[] = \(names)")
                .replacingOccurrences(of: "STRADA_PLUGIN_ABI_MINOR, 1,", with: "STRADA_PLUGIN_ABI_MINOR, \(count),"))
        let report = loader.load(directories: [directory])
        #expect(
            report.errors.map(\.description) == [
                "plugin \(path): invalid plugin description: \(problem) — rebuild it against SDK 1.x"
            ])
    }

    @Test(arguments: [
        (#""dev test", "0.1.0""#, #"plugin_id "dev test" is not "# + PluginNames.pluginIDRule),
        (#""dev/test", "0.1.0""#, #"plugin_id "dev/test" is not "# + PluginNames.pluginIDRule),
        (#""dev.test.echo", "1.0 beta""#, #"plugin_version "1.0 beta" is not "# + PluginNames.versionRule),
        (#""dev.test.echo", "1.0\n""#, #"plugin_version "1.0\n" is not "# + PluginNames.versionRule),
    ])
    func anIdOrVersionBreakingTheRulesIsRefused(declared: String, problem: String) throws {
        let path = try library(
            "libid.so", source: Self.cPlugin.replacingOccurrences(of: #""dev.test.echo", "0.1.0""#, with: declared))
        let report = loader.load(directories: [directory])
        #expect(
            report.errors.map(\.description) == [
                "plugin \(path): invalid plugin description: \(problem) — rebuild it against SDK 1.x"
            ])
    }

    @Test func aMissingVersionIsShownAsZeroAndReverseDNSIdsWithDashesLoad() throws {
        try library(
            "libid.so",
            source: Self.cPlugin
                .replacingOccurrences(of: #""dev.test.echo", "0.1.0""#, with: #""dev.test.echo-c_2", 0"#)
                .replacingOccurrences(of: #"names[] = {"echo"}"#, with: #"names[] = {"overflow-menu_2"}"#))
        let report = loader.load(directories: [directory])
        #expect(report.errors.isEmpty)
        #expect(report.plugins.first?.version == "0.0.0")
        #expect(report.plugins.first?.id == "dev.test.echo-c_2")
        #expect(report.componentNames == ["overflow-menu_2"])
    }

    @Test func aPluginFileWritableByOtherUsersIsRefused() throws {
        let path = try library("libecho.so", source: Self.cPlugin)
        chmod(path, 0o666)
        let report = loader.load(directories: [directory])
        #expect(report.plugins.isEmpty)
        #expect(
            report.errors.map(\.description) == [
                "plugin \(path): refused: the file is writable by other users (mode 666) — run `chmod go-w \(path)` "
                    + "if you trust it"
            ])
    }

    @Test func aPluginInAFolderWritableByOtherUsersIsRefused() throws {
        let path = try library("libecho.so", source: Self.cPlugin)
        chmod(directory, 0o777)
        defer { chmod(directory, 0o755) }
        let report = loader.load(directories: [directory])
        #expect(
            report.errors.map(\.description) == [
                "plugin \(path): refused: its folder \(directory) is writable by other users (mode 777) — run "
                    + "`chmod go-w \(directory)` if you trust it"
            ])
    }

    @Test func aChecksumMismatchWithTheManifestIsRefusedBeforeLoading() throws {
        let path = try library("libecho.so", source: Self.cPlugin)
        let wrong = String(repeating: "ab", count: 32)
        try #"{"sha256":"\#(wrong)"}"#.write(
            toFile: PluginManifest.path(forPlugin: path), atomically: true, encoding: .utf8)
        let actual = try PluginManifest.sha256(ofFile: path)
        let report = loader.load(directories: [directory])
        #expect(
            report.errors.map(\.description) == [
                "plugin \(path): checksum mismatch: the manifest says sha256 abababababab…, the file is "
                    + "\(actual.prefix(12))… — the file changed after it was installed; reinstall it with "
                    + "`strada-host plugin install`"
            ])
    }

    @Test func aMatchingManifestLoadsAndIsKept() throws {
        let path = try library("libecho.so", source: Self.cPlugin)
        let manifest = PluginManifest(
            id: "dev.test.echo", version: "0.1.0", components: ["echo"], abi: "1.0",
            sha256: try PluginManifest.sha256(ofFile: path))
        try manifest.json.write(toFile: PluginManifest.path(forPlugin: path), atomically: true, encoding: .utf8)
        let report = loader.load(directories: [directory])
        #expect(report.errors.isEmpty)
        #expect(report.plugins.first?.manifest == manifest)
        #expect(report.plugins.first?.abi == "1.0")
    }

    @Test func aManifestDeclaringAnotherABIIsRefusedWithoutRunningThePlugin() throws {
        let path = try library("libecho.so", source: Self.cPlugin)
        try #"{"abi":"2.0"}"#.write(toFile: PluginManifest.path(forPlugin: path), atomically: true, encoding: .utf8)
        let report = loader.load(directories: [directory])
        #expect(
            report.errors.map(\.description) == [
                "plugin \(path): built for plugin ABI 2, this host speaks ABI 1 — rebuild it against SDK 1.x, or "
                    + "use a host that speaks ABI 2"
            ])
    }

    @Test func anInvalidManifestIsRefusedNamingTheField() throws {
        let path = try library("libecho.so", source: Self.cPlugin)
        let manifestPath = PluginManifest.path(forPlugin: path)
        try #"{"components":"echo"}"#.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let report = loader.load(directories: [directory])
        #expect(
            report.errors.map(\.description) == [
                "plugin \(path): its manifest \(manifestPath) is invalid: manifest field \"components\" must be an "
                    + "array of strings — fix or delete the manifest"
            ])
    }

    @Test func aMissingDirectoryIsReportedNotFatal() {
        let report = loader.load(directories: ["/nonexistent/plugins"])
        #expect(report.plugins.isEmpty)
        #expect(
            report.errors.first?.description
                == "plugin /nonexistent/plugins: cannot read the plugins directory — create it or pass another "
                + "--plugins"
        )
    }
}

struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func digestsMatchTheFIPSVectors(input: String, digest: String) {
        #expect(SHA256.hex(Array(input.utf8)) == digest)
    }
}

/// Records warning lines.
final class WarningLines: LogHandler, @unchecked Sendable {  // the loader logs on the main thread
    var text: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .warning
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        if event.level == .warning { text.append("\(event.message)") }
    }
}
