import Foundation
package import Logging
package import StradaCore

/// The plugins of one host run, wherever each runs (``PluginPlacement``): those in the host's process — the
/// ``PluginRegistry`` — and those in worker processes — ``IsolatedPlugins`` — as one set in load order
/// (directories in order, files by name; added files last). A component name two plugins claim belongs to the
/// first in that order, whichever side each runs on. Hot reload sees this set.
@MainActor
package final class HostPlugins: ReloadablePluginSet {
    /// Which plugin files the host found at start, and which of them run in a worker.
    package struct Plan: Sendable {
        /// Every plugin file, in load order.
        package var files: [String]
        /// The files that run in a worker, in load order.
        package var isolated: [String]
    }

    package let registry: PluginRegistry
    package let workers: IsolatedPlugins
    private var rank: [String: Int]
    private let logger: Logger

    /// The plugin files in `directories` and where each runs. The folders are listed once; a plugin's manifest
    /// is read here only when the app definition chooses an isolation or the plugin goes into the sandbox.
    package static func plan(_ directories: [String], rules: PlacementRules = PluginGrants.rules) -> Plan {
        var plan = Plan(files: [], isolated: [])
        let choosing = rules.chooseWorkers
        for directory in directories {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
            let listed = Set(names)
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            for name in names where !name.hasPrefix(".") && !name.hasSuffix(".json") {
                let path = prefix + name
                plan.files.append(path)
                let signed = listed.contains(PluginInstaller.signaturePath(forPlugin: name))
                guard choosing || signed, rules.placement(forPluginAt: path, signed: signed).isolated else {
                    continue
                }
                var info = stat()
                guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { continue }
                plan.isolated.append(path)
            }
        }
        return plan
    }

    /// `plan`: what ``plan(_:)`` found, the order of both sets. Warns of a component name claimed on both sides
    /// (each side warned of its own).
    package init(registry: PluginRegistry, workers: IsolatedPlugins, plan: Plan, logger: Logger) {
        self.registry = registry
        self.workers = workers
        self.logger = logger
        rank = Dictionary(plan.files.enumerated().map { ($1, $0) }) { first, _ in first }
        var owners: [String: (path: String, isolated: Bool)] = [:]
        for member in members {
            let isolated = member is IsolatedPlugin
            for name in member.componentNames {
                guard let owner = owners[name] else {
                    owners[name] = (member.path, isolated)
                    continue
                }
                guard owner.isolated != isolated else { continue }
                logger.warning(
                    "\(PluginLoader.conflictWarning(component: name, owner: owner.path, other: member.path))")
            }
        }
    }

    /// Every plugin, in load order.
    package var members: [any ReloadablePlugin] {
        let inProcess: [any ReloadablePlugin] = registry.members
        guard !workers.plugins.isEmpty else { return inProcess }
        guard !inProcess.isEmpty else { return workers.members }
        return (inProcess + workers.members).enumerated()
            .sorted { (rank[$0.element.path] ?? Int.max, $0.offset) < (rank[$1.element.path] ?? Int.max, $1.offset) }
            .map(\.element)
    }

    /// The components served now, each from the first plugin in load order that serves it (a disabled worker
    /// serves none).
    package var registrations: [ComponentRegistration] {
        guard !workers.plugins.isEmpty else { return registry.registrations }
        guard !registry.members.isEmpty else { return workers.registrations }
        let inProcess = Dictionary(registry.registrations.map { ($0.name, $0) }) { first, _ in first }
        var result: [ComponentRegistration] = []
        var served: Set<String> = []
        for member in members {
            let offered: [ComponentRegistration]
            if let worker = member as? IsolatedPlugin {
                offered = worker.disabled ? [] : worker.registrations
            } else {
                offered = member.componentNames.compactMap { inProcess[$0] }
            }
            for registration in offered where served.insert(registration.name).inserted {
                result.append(registration)
            }
        }
        return result
    }

    /// A file that appeared while the host runs starts where its placement says.
    package func start(
        path: String, file: (path: String, sha256: String),
        completion: @escaping @MainActor (Result<any ReloadablePlugin, PluginLoadError>) -> Void
    ) {
        if rank[path] == nil { rank[path] = (rank.values.max() ?? -1) + 1 }
        let side: any ReloadablePluginSet = PluginGrants.placement(forPluginAt: path).isolated ? workers : registry
        side.start(path: path, file: file, completion: completion)
    }

    package func remove(_ plugin: any ReloadablePlugin) {
        if plugin is IsolatedPlugin { workers.remove(plugin) } else { registry.remove(plugin) }
    }
}
