import ArgumentParser
import StradaPluginHost

/// `strada-host plugin …`: manage the plugins directory.
struct Plugin: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, inspect, install, remove, create, pack and sign component plugins.",
        subcommands: [
            PluginList.self, PluginInspect.self, PluginInstall.self, PluginRemove.self, PluginNew.self, PluginCall.self,
            PluginPack.self, PluginSign.self, PluginKeygen.self, PluginTrustCommand.self, PluginProbeCommand.self,
            PluginWorkerCommand.self,
        ])
}

/// `--plugins <dir>` for the plugin subcommands, defaulting to the per-user directory.
struct PluginDirectoryOptions: ParsableArguments {
    @Option(
        name: .customLong("plugins"),
        help: "The plugins directory (default: ~/.local/share/strada/plugins, or $XDG_DATA_HOME/strada/plugins).")
    var directory: String?

    /// An installer for that directory whose probes print a refusing plugin's own log line.
    func installer() -> PluginInstaller {
        PluginInstaller(
            directory: directory ?? PluginDirectories.userDefault,
            probe: { file in
                let status = PluginProbe.inspect(file: file, launcher: .stradaHost)
                status.printLogIfRefused()
                return status
            })
    }
}
