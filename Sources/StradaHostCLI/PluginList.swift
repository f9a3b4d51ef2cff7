import ArgumentParser
import Foundation
import StradaCore
import StradaHost
import StradaPluginHost

/// `strada-host plugin list`: every plugin file a run would search, in its order, with what it declares, or
/// why it does not load — the same folders as `run` with the same options (``PluginDirectories/searched``).
struct PluginList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the plugins a run would load, in the order it searches them.")

    @Option(
        name: .customLong("plugins"),
        help: ArgumentHelp(
            "The app's plugins directory (repeatable; default: the app definition's plugins, else "
                + "~/.local/share/strada/plugins), as for run."))
    var directories: [String] = []

    @Option(
        name: .customLong("app"), help: ArgumentHelp("An app definition: list its plugins.", valueName: "file"))
    var appFile: String?

    @Flag(
        inversion: .prefixedNo,
        help: "Whether the installed host's first-party plugins are listed after the app's, as for run.")
    var systemPlugins: Bool?

    @Flag(help: "One JSON object per plugin instead of a table.")
    var json = false

    func run() throws {
        var app: AppDefinition?
        if let appFile {
            do {
                app = try AppDefinition(contentsOf: appFile)
            } catch {
                throw ValidationError(error.description)
            }
        }
        let folders = PluginDirectories.searched(
            given: directories, app: app?.pluginDirectories ?? [],
            includeSystem: systemPlugins ?? app?.systemPlugins ?? true)
        let statuses = folders.flatMap(PluginProbe.candidates(in:)).map { file in
            let status = PluginProbe.inspect(file: file, launcher: .stradaHost)
            status.printLogIfRefused()
            return status
        }
        // Where a run without --isolate puts each plugin (the app's "isolation", or the sandbox for a signed one; a
        // worker for one that crashed the host and is unchanged since).
        let crashed = PluginCrashRecord().crashed(inFolders: folders).map(\.path)
        let rules = PlacementRules(overrides: app?.grants ?? [:], crashedInProcess: Set(crashed))
        if json {
            for status in statuses {
                guard case .object(var fields) = status.json(overrides: app?.grants ?? [:]) else { continue }
                if status.state == .loaded { fields["runs"] = .string(rules.placement(forPluginAt: status.path).name) }
                print(JSON.object(fields).serialized(sortedKeys: true))
            }
            return
        }
        let includeSystem = systemPlugins ?? app?.systemPlugins ?? true
        print(
            PluginTable.render(
                statuses, folders: folders.isEmpty ? [PluginDirectories.userDefault] : folders,
                system: PluginDirectories.system, systemSearched: includeSystem, grants: app?.grants ?? [:],
                rules: rules))
    }
}

enum PluginTable {
    /// A table (id, version, ABI, components, status, where a run puts it under `rules`, what it may use with
    /// `grants` — an app definition's — applied, file), then one line per plugin that did not load or lost a
    /// component name to an earlier one, then every folder searched, in order, and the system plugins folder
    /// (`system`) when it is not among them: why (not there, or not searched: `systemSearched` false).
    static func render(
        _ statuses: [PluginStatus], folders: [String], system: String, systemSearched: Bool,
        grants: [String: PluginGrant.Override] = [:], rules: PlacementRules = PlacementRules()
    ) -> String {
        let systemLine =
            folders.contains(system)
            ? nil
            : "the system plugins folder \(system) "
                + (systemSearched
                    ? "is not there" : "is not searched (--no-system-plugins or \"system_plugins\": false)")
        guard !statuses.isEmpty else {
            return (["no plugins in \(folders.joined(separator: ", "))"] + (systemLine.map { [$0] } ?? []))
                .joined(separator: "\n")
        }
        var owners: [String: String] = [:]
        var rows = [["ID", "VERSION", "ABI", "COMPONENTS", "STATUS", "RUNS", "MAY USE", "PATH"]]
        var notes: [String] = []
        for status in statuses {
            var state = status.state.rawValue
            for component in status.components {
                if let owner = owners[component] {
                    state = "conflict"
                    notes.append("\(status.path): component \(component) is already provided by \(owner), which wins")
                } else if let id = status.id {
                    owners[component] = id
                }
            }
            rows.append([
                status.id ?? "-", status.version ?? "-", status.abi ?? "-",
                status.components.isEmpty ? "-" : status.components.joined(separator: ","), state,
                status.state == .loaded ? rules.placement(forPluginAt: status.path).name : "-",
                status.grant(overrides: grants)?.summary ?? "-", status.path,
            ])
            if let error = status.error { notes.append(error) }
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }
        notes.append("searched in this order: \(folders.joined(separator: ", then "))")
        if let systemLine { notes.append(systemLine) }
        lines.append("")
        lines.append(contentsOf: notes)
        return lines.joined(separator: "\n")
    }
}
