import ArgumentParser
import Foundation
import StradaPluginHost

/// `strada-host plugin new <name> --lang swift|c`: a buildable plugin skeleton with its own passing test.
struct PluginNew: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Create a plugin skeleton (Swift or C) that builds and has a passing test.")

    @Argument(help: "The component name, e.g. share-sheet.")
    var name: String

    @Option(help: "swift or c.")
    var lang: PluginTemplates.Language = .swift

    @Option(help: "Where to create the skeleton (default: ./<name>).")
    var output: String?

    @Option(
        help: "The Strada for Linux checkout the skeleton builds against (default: the one this host was built from).")
    var sdk: String?

    func validate() throws {
        guard name.contains(where: \.isLetter) else {
            throw ValidationError("\(name): a plugin name needs at least one letter, e.g. share-sheet")
        }
        if let sdk,
            !FileManager.default.fileExists(
                atPath: (sdk as NSString).appendingPathComponent("SDK/CStradaPlugin/include/strada_plugin.h"))
        {
            throw ValidationError(
                "--sdk \(sdk): no SDK/CStradaPlugin/include/strada_plugin.h there; pass the Strada for Linux checkout")
        }
    }

    func run() throws {
        guard let sdkPath = sdk ?? Self.checkoutContainingExecutable() else {
            throw ValidationError(
                "cannot find the Strada for Linux checkout this host was built from; pass --sdk <path>")
        }
        let directory = output ?? name
        guard !FileManager.default.fileExists(atPath: directory) else {
            throw ValidationError("\(directory) already exists; pass --output <new folder>")
        }
        let absoluteSDK = URL(fileURLWithPath: sdkPath).standardizedFileURL.path
        for file in PluginTemplates.files(name: name, language: lang, sdkPath: absoluteSDK) {
            let path = (directory as NSString).appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try file.contents.write(toFile: path, atomically: true, encoding: .utf8)
            print("created \(path)")
        }
        switch lang {
        case .swift: print("next: cd \(directory) && swift build && swift test")
        case .c: print("next: cd \(directory) && make && make test")
        }
    }

    /// The checkout holding this executable (it lives in <checkout>/.build/<config>/).
    static func checkoutContainingExecutable() -> String? {
        var url = URL(fileURLWithPath: PluginProcessLauncher.currentExecutable).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(
                atPath: url.appendingPathComponent("SDK/CStradaPlugin/include/strada_plugin.h").path)
            {
                return url.path
            }
            url.deleteLastPathComponent()
        }
        return nil
    }
}

extension PluginTemplates.Language: ExpressibleByArgument {}
