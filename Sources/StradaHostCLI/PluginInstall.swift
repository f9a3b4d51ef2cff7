import ArgumentParser
import Foundation
import StradaPluginHost

/// `strada-host plugin install <file, folder, package or URL>`: validates, then copies atomically with a
/// manifest. A package (`.strada-plugin`, a file or an http(s) URL) is verified against the trusted publisher
/// keys first, and installed only once the user said yes to what it is and may use (`--yes` for CI).
struct PluginInstall: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Validate plugin files or a plugin package and install them (atomically, with a manifest).")

    @Argument(help: "A plugin file, a folder of plugin files, or a package (.strada-plugin: a file or an http(s) URL).")
    var source: String

    @OptionGroup var options: PluginDirectoryOptions

    @Flag(help: "Install a package without asking (what it is and may use is still printed).")
    var yes = false

    @Flag(help: "Refuse packages that are not signed by a trusted publisher key.")
    var requireSignature = false

    func run() throws {
        let installer = options.installer()
        if Self.isPackage(source) { return try installPackage(with: installer) }
        for installed in try installer.install(source) {
            let status = installed.status
            print(
                "installed \(status.id ?? "?") \(status.version ?? "?") "
                    + "(\(status.components.joined(separator: ", "))) → \(status.path); "
                    + "may use: \(status.grant()?.summary ?? "-")"
            )
            for line in installed.replacementLines { print("  " + line) }
        }
    }

    /// Whether `source` names a package (a `.strada-plugin` file, or any http(s) URL) rather than plugin files.
    static func isPackage(_ source: String) -> Bool {
        let lower = source.lowercased()
        return lower.hasSuffix("." + PluginPackage.fileExtension) || lower.hasPrefix("https://")
            || lower.hasPrefix("http://")
    }

    private func installPackage(with installer: PluginInstaller) throws {
        let package = try PluginPackage(reading: try Self.read(source))
        let status = try installer.install(
            package: package, trusted: try TrustedKeys(), required: requireSignature,
            confirm: { summary in
                print(summary)
                if yes { return true }
                guard isatty(STDIN_FILENO) == 1 else {
                    FileHandle.standardError.write(Data("stdin is not a terminal: pass --yes to install\n".utf8))
                    return false
                }
                FileHandle.standardOutput.write(Data("Install it? [y/N] ".utf8))
                return ["y", "yes"].contains(readLine()?.lowercased() ?? "")
            })
        let installed = status.status
        print("installed \(installed.id ?? "?") \(installed.version ?? "?") → \(installed.path)")
    }

    /// The package's bytes, from a file or an http(s) URL (a failed download says what the server answered).
    static func read(_ source: String, action: String = "nothing installed") throws -> Data {
        do throws(PluginPackageError) {
            if source.lowercased().hasPrefix("http://") || source.lowercased().hasPrefix("https://") {
                return try PackageDownload.data(from: source)
            }
            guard let data = FileManager.default.contents(atPath: source) else {
                throw PluginPackageError("\(source): no such file")
            }
            return data
        } catch {
            throw PluginPackageError("\(action): \(error.description)")
        }
    }
}
