import ArgumentParser
import Foundation
import StradaPluginHost

/// `strada-host plugin new <name> --lang swift|c|rust`: a buildable plugin skeleton with its own passing test.
struct PluginNew: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a plugin skeleton (Swift, C or Rust) that builds and has a passing test.")

    @Argument(help: "The component name, e.g. share-sheet.")
    var name: String

    @Option(help: "swift, c or rust.")
    var lang: PluginTemplates.Language = .swift

    @Option(help: "Where to create the skeleton (default: ./<name>).")
    var output: String?

    @Option(
        help: ArgumentHelp(
            "The SDK the skeleton builds against: a Strada for Linux checkout, or an installed host's prefix "
                + "such as /usr (default: this host's own).",
            valueName: "path"))
    var sdk: String?

    func validate() throws {
        guard name.contains(where: \.isLetter) else {
            throw ValidationError("\(name): a plugin name needs at least one letter, e.g. share-sheet")
        }
        if let sdk, PluginSDK.at(sdk) == nil {
            throw ValidationError(
                "--sdk \(sdk): neither a Strada for Linux checkout (SDK/CStradaPlugin/include/strada_plugin.h) nor an "
                    + "installed prefix (include/strada/strada_plugin.h); pass one of those, e.g. --sdk /usr")
        }
    }

    func run() throws {
        let found =
            sdk.flatMap { PluginSDK.at(absolute($0)) }
            ?? PluginSDK.of(executable: PluginProcessLauncher.currentExecutable)
        guard let found else {
            throw ValidationError(
                "cannot find the plugin SDK: this host is neither installed with it (<prefix>/include/strada) nor "
                    + "built in a checkout; pass --sdk <checkout or prefix>")
        }
        let required = found.requiredFile(for: lang)
        guard FileManager.default.fileExists(atPath: required) else {
            throw ValidationError(
                "the SDK has no \(required), which a \(lang.rawValue) plugin builds against; "
                    + "reinstall the host, or pass --sdk <checkout or prefix>")
        }
        let directory = output ?? name
        guard !FileManager.default.fileExists(atPath: directory) else {
            throw ValidationError("\(directory) already exists; pass --output <new folder>")
        }
        for file in PluginTemplates.files(name: name, language: lang, sdk: found) {
            let path = (directory as NSString).appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try file.contents.write(toFile: path, atomically: true, encoding: .utf8)
            print("created \(path)")
        }
        print("next: cd \(directory) && \(PluginTemplates.nextSteps(lang))")
    }

    /// `path` made absolute and tidy, as the generated build files name it.
    private func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

extension PluginTemplates.Language: ExpressibleByArgument {}
