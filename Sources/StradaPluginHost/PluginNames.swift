import Foundation

/// The naming rules of `strada_plugin.h` ("Names"): what a plugin may call itself, its components and its
/// version. Component names go into the user agent (`bridge-components: [a b]`) and prefix control ids
/// (`form.submit`), so spaces, brackets and dots would break both.
enum PluginNames {
    static let componentNameRule = "1 to 64 ASCII letters, digits, '-' or '_' starting with a letter"
    static let pluginIDRule = "1 to 128 ASCII letters, digits, '.', '-' or '_' starting with a letter"
    static let versionRule = "1 to 64 printable ASCII characters without spaces"

    /// Why `name` is not a valid component name, or `nil`.
    static func problem(componentName name: String) -> String? {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count), isLetter(bytes[0]),
            bytes.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else {
            return "component name \(String(reflecting: name)) is not \(componentNameRule)"
        }
        return nil
    }

    /// Why `id` is not a valid plugin id, or `nil`.
    static func problem(pluginID id: String) -> String? {
        let bytes = Array(id.utf8)
        let allowed: Set<UInt8> = [UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_")]
        guard (1...128).contains(bytes.count), isLetter(bytes[0]),
            bytes.allSatisfy({ isLetter($0) || isDigit($0) || allowed.contains($0) })
        else {
            return "plugin_id \(String(reflecting: id)) is not \(pluginIDRule)"
        }
        return nil
    }

    /// Why `version` is not a valid plugin version, or `nil`: printable ASCII without spaces, 1 to 64 bytes
    /// (by convention a semantic version; the host only shows it).
    static func problem(version: String) -> String? {
        let bytes = Array(version.utf8)
        guard (1...64).contains(bytes.count), bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return "plugin_version \(String(reflecting: version)) is not \(versionRule)"
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
