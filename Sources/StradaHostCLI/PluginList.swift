import ArgumentParser
import Foundation
import StradaPluginHost

/// `strada-host plugin list`: every plugin file with what it declares, or why it does not load.
struct PluginList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the plugins in a plugins directory.")

    @OptionGroup var options: PluginDirectoryOptions

    @Flag(help: "One JSON object per plugin instead of a table.")
    var json = false

    func run() throws {
        let directory = options.directory ?? PluginDirectories.userDefault
        let statuses = PluginProbe.candidates(in: directory).map { file in
            let status = PluginProbe.inspect(file: file, launcher: .stradaHost)
            status.printLogIfRefused()
            return status
        }
        if json {
            for status in statuses { print(status.json.serialized(sortedKeys: true)) }
            return
        }
        print(PluginTable.render(statuses, directory: directory))
    }
}

enum PluginTable {
    /// A table (id, version, ABI, components, status, file), then one line per plugin that did not load.
    static func render(_ statuses: [PluginStatus], directory: String) -> String {
        guard !statuses.isEmpty else { return "no plugins in \(directory)" }
        var owners: [String: String] = [:]
        var rows = [["ID", "VERSION", "ABI", "COMPONENTS", "STATUS", "PATH"]]
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
                status.components.isEmpty ? "-" : status.components.joined(separator: ","), state, status.path,
            ])
            if let error = status.error { notes.append(error) }
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }
        if !notes.isEmpty { lines.append("") }
        lines.append(contentsOf: notes)
        return lines.joined(separator: "\n")
    }
}
