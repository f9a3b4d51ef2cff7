import ArgumentParser
import Foundation
import StradaPluginHost

/// `strada-host plugin inspect <file>`: says what one plugin declares, or why it does not load. The plugin
/// is loaded in a probe child process (`plugin probe`), so one that crashes while loading is one line here.
struct PluginInspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect", abstract: "Load one plugin file and show what it declares.")

    @Argument(help: "The plugin file (a shared library).")
    var file: String

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let status = PluginProbe.inspect(file: file, launcher: .stradaHost)
        status.printLogIfRefused()
        if json {
            print(status.json().serialized(sortedKeys: true))
        } else if let error = status.error {
            print(error)
        } else {
            print(
                """
                id:         \(status.id ?? "-")
                version:    \(status.version ?? "-")
                abi:        \(status.abi ?? "-")
                components: \(status.components.joined(separator: ", "))
                may use:    \(status.grant()?.summary ?? "-")
                path:       \(status.path)
                """)
        }
        if status.state != .loaded { throw ExitCode(1) }
    }
}

extension PluginStatus {
    /// A plugin that did not load may have said why on its own stderr, in the probe child: pass that on.
    func printLogIfRefused() {
        guard state != .loaded, let log else { return }
        FileHandle.standardError.write(Data((log + "\n").utf8))
    }
}
