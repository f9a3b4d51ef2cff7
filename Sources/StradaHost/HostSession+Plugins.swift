import Foundation
import Logging
import StradaAutomation
import StradaCore
import StradaEngineGTK
import StradaNavigation
import StradaPluginHost

// MARK: Plugins: loading, isolated workers, hot reload

extension HostSession {
    /// The plugin files that run in a worker (see ``HostPlugins/plan(_:)``), in load order, each with how it is
    /// declared (``PluginRegistry/declarations(ofIsolated:)``). A declared plugin is announced from its declaration
    /// and gets its worker when first needed; every other one gets its worker now, all started at once, and one
    /// that does not load within ``IsolatedPlugin/helloTimeout`` (its entry point hangs) is one error line, and
    /// the host starts without it. What such a worker says it loaded goes into `registry`'s plugin manifest cache,
    /// as a probe's answer does (``IsolatedPlugin/rememberHello(_:components:)``), so the plugin is declared at the
    /// next start (lazy from then on); so does its failure when only a new file can change it
    /// (``PluginRegistry/rememberFailed(_:)``), so the next start refuses that file at once. Under `--watch`
    /// (`staging`), each worker loads a staged copy of the file, never the watched file itself.
    ///
    /// Start-up waits for those workers at most ``PluginProbe/startUpGrace``: one that has not said hello by then
    /// goes on loading, and its outcome goes to `registry`'s ``PluginRegistry/onLateProbe`` when it comes (its error
    /// line written and remembered first), as an in-process probe's late answer does.
    static func startWorkers(
        _ paths: [String], declarations: [DeclaredPlugin.Declaration], registry: PluginRegistry, staging: Bool,
        launcher: PluginProcessLauncher, logger: Logger
    ) -> PluginLoadReport {
        var report = PluginLoadReport()
        // In load order: a declared plugin, or `nil` for the next one started below.
        var slots: [IsolatedPlugin?] = []
        var files: [(path: String, file: String?)] = []
        var hashes: [String: String] = [:]  // of the staged copies, by path
        for (path, declaration) in zip(paths, declarations) {
            // Failed at an earlier start, and unchanged since: refused at once (no worker, no wait).
            if case .failedBefore(let error) = declaration {
                logger.error("\(error.description)")
                report.errors.append(error)
                continue
            }
            let file: String?
            switch staging ? registry.stage(path) : nil {
            case .failure(let error)?:
                logger.error("\(error.description)")
                report.errors.append(error)
                continue
            case .success(let staged)?:
                file = staged.path
                hashes[path] = staged.sha256
            case nil: file = nil
            }
            if case .declared(let declared) = declaration {
                let plugin = IsolatedPlugin.declared(
                    declared, file: file, launcher: launcher, remember: registry.rememberLoaded, logger: logger)
                plugin.sha256 = hashes[path]
                slots.append(plugin)
            } else {
                slots.append(nil)
                files.append((path, file))
            }
        }
        var started =
            files.isEmpty
            ? [][...]
            : IsolatedPlugin.start(
                files, launcher: launcher, grace: PluginProbe.startUpGrace, remember: registry.rememberLoaded,
                logger: logger
            ) { [weak registry] _, outcome in
                guard let registry else { return }
                switch outcome {
                case .success(let plugin): plugin.sha256 = hashes[plugin.path]
                case .failure(let error):
                    logger.error("\(error.description)")
                    registry.rememberFailed(error)
                }
                registry.onLateProbe?(outcome.map { $0 })
            }[...]
        // The build each worker runs, so a file rewritten with the same bytes is not reloaded (as in process).
        for case .success(let plugin)? in started { plugin.sha256 = hashes[plugin.path] }
        var owners: [String: String] = [:]
        for slot in slots {
            let next: Result<IsolatedPlugin, PluginLoadError>?
            if let slot {
                next = .success(slot)
            } else {
                guard let first = started.popFirst() else { continue }
                next = first
            }
            guard let outcome = next else { continue }  // still loading: it comes in later
            switch outcome {
            case .success(let plugin):
                // As in process: the first plugin (directories in order, files by name) keeps a name claimed twice.
                for component in plugin.componentNames {
                    guard let owner = owners[component] else {
                        owners[component] = plugin.path
                        continue
                    }
                    let line = PluginLoader.conflictWarning(component: component, owner: owner, other: plugin.path)
                    logger.warning("\(line)")
                    report.conflicts.append(component)
                }
                report.isolated.append(plugin)
            case .failure(let error):
                logger.error("\(error.description)")
                report.errors.append(error)
                // A hang or crash while loading is remembered, as a probe's is: the next start does not wait again.
                registry.rememberFailed(error)
            }
        }
        return report
    }

    /// A file first seen at this start answered its probe (or its first worker said hello) after start-up was
    /// done: its plugin is added as one added while the host runs (a worker joins the workers), the user agent is
    /// updated and the page reloaded when the set of components changed; or its error is reported.
    func pluginAnsweredLate(_ outcome: Result<any ReloadablePlugin, PluginLoadError>) {
        switch outcome {
        case .failure(let error):
            automation?.emit(.pluginError(path: error.path, reason: error.reason, message: error.description))
        case .success(let plugin):
            if let worker = plugin as? IsolatedPlugin { workers.add(worker) }
            let components = plugin.componentNames.joined(separator: " ")
            logger.info("plugin \(plugin.path) answered after start-up: \(plugin.id) [\(components)]")
            automation?.emit(.pluginAdded(path: plugin.path, id: plugin.id, components: plugin.componentNames))
            componentsChanged()
        }
    }

    /// Reports what happens to an isolated plugin's worker; a disabled plugin's components stop being
    /// announced, and messages still sent to them are dropped with the reason.
    func observe(_ plugin: IsolatedPlugin) {
        plugin.onEvent = { [weak self] event in
            guard let self else { return }
            switch event {
            case .crashed(let path, let id, let reason):
                automation?.emit(.pluginCrashed(path: path, id: id, reason: reason))
            case .restarted(let path, let id):
                automation?.emit(.pluginRestarted(path: path, id: id))
            case .disabled(let path, let id):
                automation?.emit(.pluginDisabled(path: path, id: id))
                componentsChanged()
            case .loadFailed(let error):
                // As in process: said once, when first needed; its components stay announced and drop messages.
                automation?.emit(.pluginError(path: error.path, reason: error.reason, message: error.description))
            }
        }
        plugin.onDropped = { [weak self] message, reason in
            guard let self else { return }
            if Strada.config.debugLoggingEnabled {
                logger.info("ignored \(message.component)/\(message.event) #\(message.id): \(reason)")
            }
            window.bridge.observer?(.dropped(message, reason: reason))
        }
    }

    /// The component set may have changed (a plugin was added, removed, disabled, or rebuilt with other names):
    /// new pages get the components served now, and if the set changed, the user agent is updated and the page
    /// reloaded.
    func componentsChanged() {
        let registrations = plugins.registrations
        for navigator in windows.allNavigators {
            _ = navigator.reloadComponents(named: [], registrations: registrations)
        }
        let names = ComponentRegistration.uniqueNames(registrations)
        if windows.setComponentNames(names) {
            let list = names.joined(separator: " ")
            logger.info("the set of components changed to [\(list)]: user agent updated, page reloaded")
            automation?.emit(.hostComponents(components: names, userAgent: window.userAgent))
        }
    }

    /// Hot reload (`--watch`), in process and isolated alike: a plugin file changed while the host runs. A rebuilt
    /// plugin gets its new build (a staged copy; see ``ReloadablePlugin``), a new file a plugin, and a removed
    /// file's components are gone (a name another plugin also serves is taken over by it). Manifests are read
    /// with their plugin. What the worker of a new file or a new build says it loaded goes into the plugin manifest
    /// cache, as at start-up (``startWorkers(_:declarations:registry:staging:launcher:logger:)``).
    func pluginFileChanged(_ path: String) {
        guard !path.hasSuffix(".json") else { return }
        guard FileManager.default.fileExists(atPath: path) else { return pluginFileRemoved(path) }
        // The file is hashed off the main thread (a few MiB take seconds in a debug build); an unchanged build
        // (the same bytes copied again) goes no further.
        DispatchQueue.global().async { [weak self] in
            let hash = try? PluginManifest.sha256(ofFile: path)
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.pluginFileHashed(path, sha256: hash) } }
        }
    }

    private func pluginFileRemoved(_ path: String) {
        guard let known = plugins.members.first(where: { $0.path == path }) else { return }
        plugins.remove(known)
        let components = known.componentNames
        logger.info("plugin \(path) was removed; components [\(components.joined(separator: " "))] are gone")
        // Instances go before the plugin's shutdown; a name another plugin also serves is reloaded with it.
        let registrations = plugins.registrations
        let served = Set(ComponentRegistration.uniqueNames(registrations))
        for navigator in windows.allNavigators {
            navigator.destroyComponents(
                named: components.filter { !served.contains($0) }, registrations: registrations)
            _ = navigator.reloadComponents(named: components.filter(served.contains), registrations: registrations)
        }
        known.shutdown()
        automation?.emit(.pluginRemoved(path: path, components: components))
        componentsChanged()
    }

    /// ``pluginFileChanged(_:)`` once the file's SHA-256 is known (`nil`: it could not be read).
    private func pluginFileHashed(_ path: String, sha256: String?) {
        let known = plugins.members.first { $0.path == path }
        if let sha256, known?.sha256 == sha256 {
            return logger.info(
                "plugin \(path) was written with the bytes it runs (SHA-256 \(sha256.prefix(12))…): not reloaded")
        }
        let staged: (path: String, sha256: String)
        switch registry.stage(path, sha256: sha256) {
        case .success(let copy): staged = copy
        case .failure(let error): return reloadFailed(error)
        }
        if let known, known.sha256 == staged.sha256 { return }
        guard let known else {
            return plugins.start(path: path, file: staged) { [weak self] outcome in
                guard let self else { return }
                switch outcome {
                case .failure(let error): reloadFailed(error)
                case .success(let plugin):
                    logger.info(
                        "plugin \(path) was added: \(plugin.id) [\(plugin.componentNames.joined(separator: " "))]")
                    automation?.emit(.pluginAdded(path: path, id: plugin.id, components: plugin.componentNames))
                    componentsChanged()
                }
            }
        }
        // Nothing here waits: an isolated plugin's new build loads in a new worker while the old one serves.
        known.reload(from: staged) { [weak self, weak known] outcome in
            guard let self, let known else { return }
            switch outcome {
            case .failure(let error): reloadFailed(error)
            case .success(let build):
                let delta = build.residentKilobytesDelta
                let memory = build.placement.isEmpty ? ", RSS \(delta >= 0 ? "+" : "")\(delta) KiB" : ""
                logger.info(
                    """
                    plugin \(known.id) reloaded\(build.placement) (generation \(build.generation), \
                    \(String(format: "%.1f", build.milliseconds)) ms\(memory))
                    """)
                automation?.emit(
                    .pluginReloaded(
                        path: path, id: known.id, generation: build.generation, components: known.componentNames,
                        reinstantiated: build.reinstantiated, milliseconds: build.milliseconds,
                        residentKilobytesDelta: delta))
                // A plugin disabled after a bad build is announced again once a good one serves.
                componentsChanged()
            }
        }
    }

    private func reloadFailed(_ error: PluginLoadError) {
        logger.error("\(error.description)")
        automation?.emit(.pluginReloadFailed(path: error.path, error: error.description))
    }
}
