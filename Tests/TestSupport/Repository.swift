public import Foundation

/// This checkout: the one way tests find fixtures, examples and the SDK.
public enum Repository {
    /// The repository root (the folder holding `Package.swift`), found from this file's place in `Tests/TestSupport/`.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/TestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// The absolute path of `relative` (e.g. `"Examples/form-demo/index.html"`) inside the repository.
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}

/// Products built next to the test binary (`swift build` puts them in the same folder).
public enum BuiltProducts {
    /// The build folder holding `strada-host` and the plugin libraries.
    public static var directory: URL {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: executable).deletingLastPathComponent()
        let host = "strada-host"
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent(host).path) {
            url.deleteLastPathComponent()
        }
        return url
    }

    /// The absolute path of the built product `name`, e.g. `"strada-host"` or `"libStradaFormPlugin.so"`.
    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}

/// A fresh plugins directory holding copies of built plugins, for `strada-host --plugins`.
public enum PluginsDirectory {
    /// A new folder (removed when the test ends, see ``TemporaryDirectory``) with copies of `plugins`.
    public static func make(plugins: [String] = ["libStradaFormPlugin.so"]) throws -> String {
        let path = try TemporaryDirectory.make("plugins")
        for plugin in plugins {
            try FileManager.default.copyItem(
                atPath: BuiltProducts.path(plugin), toPath: (path as NSString).appendingPathComponent(plugin))
        }
        return path
    }
}
