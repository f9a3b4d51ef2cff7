import Foundation

/// Where one plugin runs in this host: in the host's process (`dlopen`), in a worker process of its own, or in
/// a worker inside the sandbox (``PluginSandbox``). Chosen per plugin by
/// ``PlacementRules/placement(forPluginAt:signed:)``.
package enum PluginPlacement: Sendable, Equatable {
    case inProcess
    case process
    case sandbox(PluginSandbox)

    /// Whether the plugin runs in a worker process (plain or sandboxed).
    package var isolated: Bool { self != .inProcess }
}

/// The rules that place each plugin: the app definition's `grants` (their `isolation`) and the command line's
/// `--isolate` and `--sandbox`. A value, so `plugin list` can say where a run would put each plugin.
package struct PlacementRules: Sendable {
    package var overrides: [String: PluginGrant.Override]
    /// Every plugin runs in a worker at least (`run --isolate`, or `--sandbox`).
    package var isolateEveryPlugin: Bool
    /// Every plugin runs in the sandbox unless the app names another isolation for it (`run --sandbox`).
    package var sandboxEveryPlugin: Bool
    /// Plugin files (their paths) that crashed the host at an earlier start and are unchanged since
    /// (``PluginCrashRecord``): each runs in a worker at least, where a crash is survivable.
    package var crashedInProcess: Set<String>

    package init(
        overrides: [String: PluginGrant.Override] = [:], isolateEveryPlugin: Bool = false,
        sandboxEveryPlugin: Bool = false, crashedInProcess: Set<String> = []
    ) {
        self.overrides = overrides
        self.isolateEveryPlugin = isolateEveryPlugin
        self.sandboxEveryPlugin = sandboxEveryPlugin
        self.crashedInProcess = crashedInProcess
    }

    /// Whether these rules may put some plugin without a signature beside it in a worker.
    var chooseWorkers: Bool {
        isolateEveryPlugin || sandboxEveryPlugin || !crashedInProcess.isEmpty
            || overrides.values.contains { $0.isolation != nil && $0.isolation != .inProcess }
    }

    /// Where the plugin at `path` runs. The app definition's `"isolation"` for its id decides (`"in-process"`
    /// still means a worker under `--isolate`: the command line asked for every plugin in one); without one, a
    /// plugin installed from a signed package — a third party's, with a signature beside it — runs in the
    /// sandbox, with `--sandbox` every plugin does, with `--isolate` every plugin runs as a plain process, and
    /// otherwise in the host's process. A sandboxed plugin has the network only when its grant names `network`.
    ///
    /// `signed`: whether a signature lies beside it, when the caller has listed its folder (else it is looked
    /// up). The plugin's manifest is read only when the app definition chooses an isolation for some plugin or
    /// the plugin goes into the sandbox.
    package func placement(forPluginAt path: String, signed: Bool? = nil) -> PluginPlacement {
        var manifest: PluginManifest??
        func readManifest() -> PluginManifest? {
            if let manifest { return manifest }
            let read = PluginManifest(besidePlugin: path)
            manifest = .some(read)
            return read
        }
        let choosing = overrides.values.contains { $0.isolation != nil }
        let chosen = choosing ? readManifest()?.id.flatMap { overrides[$0]?.isolation } : nil
        let fromThirdParty =
            signed ?? FileManager.default.fileExists(atPath: PluginInstaller.signaturePath(forPlugin: path))
        let isolation: PluginGrant.Isolation
        switch chosen {
        case .sandbox?: isolation = .sandbox
        case .process?: isolation = .process
        case .inProcess?: isolation = sandboxEveryPlugin ? .sandbox : isolateEveryPlugin ? .process : .inProcess
        case nil:
            isolation = sandboxEveryPlugin || fromThirdParty ? .sandbox : isolateEveryPlugin ? .process : .inProcess
        }
        switch isolation {
        case .inProcess: return crashedInProcess.contains(path) ? .process : .inProcess
        case .process: return .process
        case .sandbox:
            let manifest = readManifest()
            let granted = PluginGrant.effective(
                declared: manifest?.capabilities, origins: manifest?.origins,
                granted: manifest?.id.flatMap { overrides[$0] })
            return .sandbox(
                PluginSandbox(
                    network: granted.capabilities?.contains(Capability.network) == true,
                    dataFolder: PluginSandbox.dataFolder(forPluginAt: path)))
        }
    }
}

extension PluginPlacement {
    /// How `plugin list` names it: "in process", "worker" or "sandbox".
    package var name: String {
        switch self {
        case .inProcess: "in process"
        case .process: "worker"
        case .sandbox: "sandbox"
        }
    }
}

extension PluginGrants {
    /// Every plugin runs in a worker at least (`run --isolate`, or `--sandbox`).
    package static var isolateEveryPlugin = false
    /// Plugin files that crashed the host at an earlier start, unchanged since: each runs in a worker at least.
    package static var crashedInProcess: Set<String> = []

    /// The rules of this run, from ``overrides``, ``isolateEveryPlugin``, ``sandboxEveryPlugin`` and
    /// ``crashedInProcess``.
    package static var rules: PlacementRules {
        PlacementRules(
            overrides: overrides, isolateEveryPlugin: isolateEveryPlugin, sandboxEveryPlugin: sandboxEveryPlugin,
            crashedInProcess: crashedInProcess)
    }

    /// Where the plugin at `path` runs in this run (see ``PlacementRules/placement(forPluginAt:signed:)``).
    package static func placement(forPluginAt path: String, signed: Bool? = nil) -> PluginPlacement {
        rules.placement(forPluginAt: path, signed: signed)
    }

    /// The sandbox the worker of the plugin at `path` runs in, or `nil` when it is not sandboxed.
    package static func sandbox(forPluginAt path: String) -> PluginSandbox? {
        guard case .sandbox(let sandbox) = placement(forPluginAt: path) else { return nil }
        return sandbox
    }
}
