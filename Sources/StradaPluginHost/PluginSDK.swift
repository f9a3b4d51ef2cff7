import Foundation

/// What a `plugin new` project builds against, and where it is: a Strada for Linux checkout, or an installed
/// host's prefix (`/usr` from the Debian package, or wherever the package was unpacked).
///
/// | | checkout | installed prefix |
/// |---|---|---|
/// | ``swiftPackage`` (StradaPluginSDK, StradaCore, StradaTesting) | the checkout | `<prefix>/share/strada/swift-sdk` |
/// | ``cHeaders`` (`strada_plugin.h`, `strada_json.h`) | `SDK/CStradaPlugin/include` | `<prefix>/include/strada` |
/// | ``web`` (`strada.js`) | `SDK/web` | `<prefix>/share/strada/web` |
package struct PluginSDK: Sendable, Equatable {
    /// A SwiftPM package named `StradaLinux` with the products `StradaPluginSDK`, `StradaCore` and
    /// `StradaTesting`.
    package var swiftPackage: String
    /// The folder with the plugin ABI's C headers.
    package var cHeaders: String
    /// The folder with the web library, `strada.js`.
    package var web: String

    package init(swiftPackage: String, cHeaders: String, web: String) {
        self.swiftPackage = swiftPackage
        self.cHeaders = cHeaders
        self.web = web
    }

    /// The SDK of the Strada for Linux checkout at `root`.
    package static func checkout(_ root: String) -> PluginSDK {
        PluginSDK(
            swiftPackage: root, cHeaders: join(root, "SDK/CStradaPlugin/include"), web: join(root, "SDK/web"))
    }

    /// The SDK installed under `prefix` (`scripts/package`: `/usr`).
    package static func installed(prefix: String) -> PluginSDK {
        PluginSDK(
            swiftPackage: join(prefix, "share/strada/swift-sdk"), cHeaders: join(prefix, "include/strada"),
            web: join(prefix, "share/strada/web"))
    }

    /// The SDK at `path`, a checkout or an installed prefix, when its C headers are there.
    package static func at(_ path: String, exists: (String) -> Bool = fileExists) -> PluginSDK? {
        [checkout(path), installed(prefix: path)].first { exists(join($0.cHeaders, "strada_plugin.h")) }
    }

    /// The SDK of the host binary at `executable`: the prefix it is installed in (`<prefix>/bin/strada-host`),
    /// else the checkout it was built in (`<checkout>/.build/<config>/strada-host`, any folder above it).
    package static func of(executable: String, exists: (String) -> Bool = fileExists) -> PluginSDK? {
        var folder = (executable as NSString).deletingLastPathComponent
        let prefix = (folder as NSString).deletingLastPathComponent
        if exists(join(installed(prefix: prefix).cHeaders, "strada_plugin.h")) { return installed(prefix: prefix) }
        while folder != "/" && !folder.isEmpty {
            if exists(join(checkout(folder).cHeaders, "strada_plugin.h")) { return checkout(folder) }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return nil
    }

    /// The file a project in `language` needs from this SDK, to check it is there before writing anything.
    package func requiredFile(for language: PluginTemplates.Language) -> String {
        switch language {
        case .swift: Self.join(swiftPackage, "Package.swift")
        case .c: Self.join(cHeaders, "strada_plugin.h")
        case .rust: Self.join(web, "strada.js")  // the bindings are in the project; only the page uses the SDK
        }
    }

    package static func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    private static func join(_ folder: String, _ path: String) -> String {
        (folder as NSString).appendingPathComponent(path)
    }
}
