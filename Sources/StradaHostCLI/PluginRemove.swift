import ArgumentParser
import Foundation
import StradaPluginHost

/// `strada-host plugin remove <name>`: removes an installed plugin and its manifest.
struct PluginRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove an installed plugin by id or file name.")

    @Argument(help: "The plugin id (e.g. dev.strada.form) or file name (e.g. libStradaFormPlugin.so).")
    var name: String

    @OptionGroup var options: PluginDirectoryOptions

    func run() throws {
        let installer = options.installer()
        do {
            print("removed \(try installer.remove(name))")
        } catch {
            throw error
        }
    }
}
