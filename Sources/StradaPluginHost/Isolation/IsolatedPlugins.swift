import Dispatch
package import Logging
package import StradaCore

/// The plugins of an `--isolate` run, one ``IsolatedPlugin`` (worker process) per file, as hot reload sees them.
@MainActor
package final class IsolatedPlugins: ReloadablePluginSet {
    /// Every plugin, in load order (directories in order, files by name; added ones last).
    package private(set) var plugins: [IsolatedPlugin]
    private let launcher: PluginProcessLauncher
    private let remember: RememberLoaded?
    private let logger: Logger
    /// Sees each plugin started while the host runs, once its worker has loaded (to observe that worker).
    package var onStarted: (@MainActor (IsolatedPlugin) -> Void)?

    /// `remember`: where what the worker of a plugin added while the host runs says it loaded goes, as for
    /// `plugins` (see ``IsolatedPlugin/rememberHello(_:components:)``).
    package init(
        _ plugins: [IsolatedPlugin], launcher: PluginProcessLauncher, remember: RememberLoaded?, logger: Logger
    ) {
        self.plugins = plugins
        self.launcher = launcher
        self.remember = remember
        self.logger = logger
    }

    package var members: [any ReloadablePlugin] { plugins }

    /// The components of the plugins serving: a plugin disabled after crashing is not announced.
    package var registrations: [ComponentRegistration] { plugins.filter { !$0.disabled }.flatMap(\.registrations) }

    /// A new file gets a worker; nothing here waits for it.
    package func start(
        path: String, file: (path: String, sha256: String),
        completion: @escaping @MainActor (Result<any ReloadablePlugin, PluginLoadError>) -> Void
    ) {
        IsolatedPlugin.start(path: path, file: file.path, launcher: launcher, remember: remember, logger: logger) {
            [weak self] outcome in
            switch outcome {
            case .success(let plugin):
                plugin.sha256 = file.sha256
                self?.plugins.append(plugin)
                self?.onStarted?(plugin)
                completion(.success(plugin))
            case .failure(let error): completion(.failure(error))
            }
        }
    }

    package func remove(_ plugin: any ReloadablePlugin) { plugins.removeAll { $0 === plugin } }

    /// A plugin whose first worker loaded after start-up was done: it joins, and ``onStarted`` sees it.
    package func add(_ plugin: IsolatedPlugin) {
        plugins.append(plugin)
        onStarted?(plugin)
    }
}

extension IsolatedPlugin: ReloadablePlugin {
    /// `--isolate --watch`: a new build of the plugin, at `file` (a staged copy of ``path``), replaces the
    /// running one. A new worker loads it next to the one serving; once it has said hello the old worker stops
    /// and every live component is brought back in the new one (new instance, page lifecycle, every cached
    /// message replayed), and a disabled plugin is enabled again. If it does not load (error, crash, no hello in
    /// ``helloTimeout`` s), the old worker keeps serving. A plugin without a worker yet (declared, or broken when
    /// first needed) gets its first worker on the new build, which serves from then on; if that does not load,
    /// the plugin stays as it was. `completion` gets the names of the live components brought back, or the error.
    /// Nothing here waits on the main thread.
    package func reload(
        from file: String, completion: @escaping @MainActor (_ names: [String]?, _ error: PluginLoadError?) -> Void
    ) {
        // A worker still loading for a page's first use or for a restart after a crash (its own, or an earlier
        // build it adopted) gives way: this build gets the page's instances. Should this build not load, the one
        // it replaced is started again (reloadFailedAfterAdoption).
        var adopted = false
        if let pending {
            switch pending.purpose {
            case .reload(_, let earlier):
                self.pending = nil
                adopted = connection === pending.connection
                pending.connection.kill()
                earlier(
                    nil,
                    PluginLoadError(path: path, reason: "replaced by a newer build before it loaded", remedy: "none"))
            case .firstUse, .restart:
                self.pending = nil
                adopted = true
                pending.connection.kill()
            case .start: break
            }
        }
        if adopted {
            connection = nil
            failCalls("a new build replaced it before it answered")
        }
        do throws(PluginLoadError) { try spawn(.reload(file: file, completion), file: file) } catch {
            completion(nil, error)
            if adopted { reloadFailedAfterAdoption() }
            return
        }
        if adopted, let pending {
            connection = pending.connection
            bringBack(excludingLastDelivered: false)
        }
    }

    /// The new build loads in a new worker while the old one serves, which stops once the new one has loaded; the
    /// live components are brought back with every cached message. A plugin disabled after a bad build comes back.
    package func reload(
        from staged: (path: String, sha256: String),
        completion: @escaping @MainActor (Result<ReloadedBuild, PluginLoadError>) -> Void
    ) {
        let started = DispatchTime.now().uptimeNanoseconds
        reload(from: staged.path) { [weak self] reinstantiated, error in
            guard let self else { return }
            guard let reinstantiated else {
                return completion(
                    .failure(error ?? PluginLoadError(path: path, reason: "did not load", remedy: "fix the plugin")))
            }
            generation += 1
            sha256 = staged.sha256
            completion(
                .success(
                    ReloadedBuild(
                        generation: generation, reinstantiated: reinstantiated,
                        milliseconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6,
                        residentKilobytesDelta: 0, placement: " in a new worker")))
        }
    }
}
