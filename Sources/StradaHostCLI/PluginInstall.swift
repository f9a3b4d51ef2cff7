import ArgumentParser
import Foundation
import StradaPluginHost

/// `strada-host plugin install <file or dir>`: validates, then copies atomically with a manifest.
struct PluginInstall: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Validate plugin files and install them (atomically, with a checksum manifest).")

    @Argument(help: "A plugin file, or a folder of plugin files.")
    var source: String

    @OptionGroup var options: PluginDirectoryOptions

    func run() throws {
        let installer = options.installer()
        do {
            for status in try installer.install(source) {
                print(
                    "installed \(status.id ?? "?") \(status.version ?? "?") "
                        + "(\(status.components.joined(separator: ", "))) → \(status.path); "
                        + "may use: \(status.grant()?.summary ?? "-")"
                )
            }
        } catch {
            throw error
        }
    }
}
