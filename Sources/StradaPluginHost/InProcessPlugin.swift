import Foundation

/// One plugin file served in the host's process: *declared* (announced, not opened yet), *opened* (a generation
/// serving) or *broken* (it failed to open when first needed: reported once, not tried again until the file
/// changes). A reload swaps generations; the replaced one gets its `shutdown` once its instances are gone, and is
/// never unloaded (Swift images cannot be `dlclose`d).
@MainActor
package final class InProcessPlugin: ReloadablePlugin {
    enum State {
        case declared(DeclaredPlugin)
        case opened(PluginRegistry.Generation)
        case broken(DeclaredPlugin)
    }

    package let path: String
    private(set) var state: State
    private unowned let registry: PluginRegistry

    init(path: String, state: State, registry: PluginRegistry) {
        self.path = path
        self.state = state
        self.registry = registry
    }

    /// Its manifest as read when it was declared (see ``DeclaredPlugin/manifest``); `nil` once opened.
    var declaredManifest: PluginManifest?? {
        if case .declared(let plugin) = state { plugin.manifest } else { nil }
    }

    package var id: String {
        switch state {
        case .declared(let plugin), .broken(let plugin): plugin.id
        case .opened(let generation): generation.plugin.id
        }
    }

    package var componentNames: [String] {
        switch state {
        case .declared(let plugin), .broken(let plugin): plugin.componentNames
        case .opened(let generation): generation.plugin.componentNames
        }
    }

    package var sha256: String? { generation?.sha256 }

    /// The generation serving, once opened.
    var generation: PluginRegistry.Generation? {
        if case .opened(let generation) = state { generation } else { nil }
    }

    /// What it provides, opened or not.
    var status: PluginStatus {
        switch state {
        case .declared(let plugin), .broken(let plugin): plugin.status
        case .opened(let generation): PluginStatus(generation.plugin)
        }
    }

    /// The plugin, opened now if it was only declared (`why`: what needs it, for the log line); `nil` when it is
    /// broken or fails to open now (said once, in one line).
    func open(for why: String) -> LoadedPlugin? {
        guard case .declared(let plugin) = state else { return generation?.plugin }
        let started = DispatchTime.now().uptimeNanoseconds
        // Never seen loading: a probe child loads it first, so a crash there cannot take the host down. One the
        // probe refuses is loaded below, so the refusal (and what it logged) is the host's own.
        if !plugin.probed, let crash = registry.crashInProbe(path) { return failed(plugin, crash) }
        switch registry.loadFromSource(path, number: 1) {
        case .failure(let error): return failed(plugin, error)
        case .success(let generation):
            state = .opened(generation)
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            registry.logger.info(
                """
                plugin \(path) loaded on first use (\(why)): \(generation.plugin.id) in \
                \(String(format: "%.1f", milliseconds)) ms
                """)
            return generation.plugin
        }
    }

    private func failed(_ plugin: DeclaredPlugin, _ error: PluginLoadError) -> LoadedPlugin? {
        state = .broken(plugin)
        registry.openFailed(error)
        return nil
    }

    package func reload(
        from staged: (path: String, sha256: String),
        completion: @escaping @MainActor (Result<ReloadedBuild, PluginLoadError>) -> Void
    ) {
        let started = DispatchTime.now().uptimeNanoseconds
        let residentBefore = PluginRegistry.residentKilobytes()
        let previous = generation
        let result = registry.validate(staged.path, source: path).flatMap { _ in
            registry.open(staged.path, source: path, sha256: staged.sha256, number: (previous?.number ?? 0) + 1)
        }
        switch result {
        case .failure(let refusal):
            let remedy = refusal.remedy + (previous == nil ? "" : "; the previous build keeps serving")
            completion(.failure(PluginLoadError(path: path, reason: refusal.reason, remedy: remedy)))
        case .success(let generation):
            // A declared (or broken) plugin's new build is opened now and serves; a page holding stand-ins for a
            // broken one gets real instances.
            state = .opened(generation)
            let names = (previous?.plugin ?? generation.plugin).componentNames.filter {
                registry.ownerPath(of: $0) == path
            }
            let reinstantiated = registry.onSwap?(names) ?? []
            // The replaced build's instances are gone now: its plugin gets its shutdown.
            previous?.plugin.shutdown()
            completion(
                .success(
                    ReloadedBuild(
                        generation: generation.number, reinstantiated: reinstantiated,
                        milliseconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6,
                        residentKilobytesDelta: PluginRegistry.residentKilobytes() - residentBefore, placement: "")))
        }
    }

    package func shutdown() { generation?.plugin.shutdown() }
}
