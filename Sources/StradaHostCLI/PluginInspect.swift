import ArgumentParser
import Foundation
import StradaPluginHost

/// `strada-host plugin inspect <file>`: says what one plugin declares, or why it does not load. The plugin
/// is loaded in a probe child process (`plugin probe`), so one that crashes while loading is one line here. A
/// package (`.strada-plugin`, a file or an http(s) URL) is looked at without installing it or running its code:
/// what its manifest declares, its checksum and its signature (``PackageInspection``).
struct PluginInspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect", abstract: "Show what a plugin file or a package (checked, not installed) declares.")

    @Argument(help: "The plugin file (a shared library), or a package (.strada-plugin: a file or an http(s) URL).")
    var file: String

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        if PluginInstall.isPackage(file) { return try inspectPackage() }
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

    /// A package: exit status 1 when it is not intact (tampered, or its manifest unreadable).
    private func inspectPackage() throws {
        let package = try PluginPackage(reading: try PluginInstall.read(file, action: "cannot inspect it"))
        let inspection = PackageInspection(package, trusted: try TrustedKeys())
        if json {
            print(inspection.json.serialized(sortedKeys: true))
        } else {
            print(
                (["package:      \(file) (not installed; none of its code was run)"] + inspection.lines).joined(
                    separator: "\n"))
        }
        if !inspection.isIntact { throw ExitCode(1) }
    }
}

extension PluginStatus {
    /// A plugin that did not load may have said why on its own stderr, in the probe child: pass that on.
    func printLogIfRefused() {
        guard state != .loaded, let log else { return }
        FileHandle.standardError.write(Data((log + "\n").utf8))
    }
}
