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
    /// A new folder (removed when the test ends, see ``TemporaryDirectory``) with copies of `plugins`, each
    /// first-party one with its manifest (`Plugins/<Name>/manifest.json` as `libStrada<Name>Plugin.json`), as
    /// the package installs them.
    public static func make(plugins: [String] = ["libStradaFormPlugin.so"]) throws -> String {
        let path = try TemporaryDirectory.make("plugins")
        for plugin in plugins {
            let target = (path as NSString).appendingPathComponent(plugin)
            try FileManager.default.copyItem(atPath: BuiltProducts.path(plugin), toPath: target)
            if let manifest = firstPartyManifest(of: plugin) {
                try FileManager.default.copyItem(
                    atPath: manifest, toPath: (target as NSString).deletingPathExtension + ".json")
            }
        }
        return path
    }

    /// `Plugins/<Name>/manifest.json` for `libStrada<Name>Plugin.so`, if that plugin is first-party.
    public static func firstPartyManifest(of library: String) -> String? {
        guard library.hasPrefix("libStrada"), library.hasSuffix("Plugin.so") else { return nil }
        let name = library.dropFirst("libStrada".count).dropLast("Plugin.so".count)
        let manifest = Repository.path("Plugins/\(name)/manifest.json")
        return FileManager.default.fileExists(atPath: manifest) ? manifest : nil
    }
}
