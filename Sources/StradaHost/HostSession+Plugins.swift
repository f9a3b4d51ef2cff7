import Foundation
import Logging
import StradaAutomation
import StradaCore
import StradaEngineGTK
import StradaNavigation
import StradaPluginHost

// MARK: Plugins: loading, isolated workers, hot reload

extension HostSession {
    /// `--isolate`: one worker process per plugin file, all started at once; a plugin that does not load within
    /// ``IsolatedPlugin/helloTimeout`` (its entry point hangs) is one error line, and the host starts without
    /// it. Under `--watch` (`staging`), each worker loads a staged copy, never the watched file.
    static func startWorkers(
        _ directories: [String], staging: PluginRegistry?, launcher: PluginProcessLauncher, logger: Logger
    ) -> (PluginLoadReport, [ComponentRegistration]) {
        var report = PluginLoadReport()
        var files: [(path: String, file: String?)] = []
        for directory in directories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                let error = PluginLoadError.unreadableDirectory(directory)
                logger.error("\(error.description)")
                report.errors.append(error)
                continue
            }
        }
        for path in directories.flatMap(PluginProbe.candidates(in:)) {
            switch staging?.stage(path) {
            case .failure(let error)?:
                logger.error("\(error.description)")
                report.errors.append(error)
            case .success(let staged)?: files.append((path, staged.path))
            case nil: files.append((path, nil))
            }
        }
        var registrations: [ComponentRegistration] = []
        var owners: [String: String] = [:]
        for outcome in IsolatedPlugin.start(files, launcher: launcher, logger: logger) {
            switch outcome {
            case .success(let plugin):
                // As in process: the first plugin (directories in order, files by name) keeps a name claimed twice.
                for component in plugin.componentNames {
                    guard let owner = owners[component] else {
                        owners[component] = plugin.path
                        continue
                    }
                    logger.warning(
                        """
                        component "\(component)" is provided by \(owner) and \(plugin.path); using \(owner) \
                        — remove one of the two files from the plugins folders, or rename the component in one
                        """)
                    report.conflicts.append(component)
                }
                report.isolated.append(plugin)
                registrations += plugin.registrations
            case .failure(let error):
                logger.error("\(error.description)")
                report.errors.append(error)
            }
        }
        return (report, registrations)
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
                isolatedComponentsChanged()
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

    /// The isolated plugins' component set may have changed (a plugin was disabled, added, removed or
    /// rebuilt with other names): new pages get the components of the plugins serving now, and if the set
    /// changed, the user agent is updated and the page reloaded (as with hot reload).
    func isolatedComponentsChanged() {
        let registrations = isolated.filter { !$0.disabled }.flatMap(\.registrations)
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

    /// `--isolate --watch`: a plugin file changed. A rebuilt plugin's worker is restarted with the new build
    /// (a staged copy), its live components brought back as after a crash; a new file gets a worker.
    func isolatedFileChanged(_ path: String) {
        guard !path.hasSuffix(".json") else { return }
        let known = isolated.first { $0.path == path }
        guard FileManager.default.fileExists(atPath: path) else {
            guard let known else { return }
            known.shutdown()
            isolated.removeAll { $0 === known }
            isolatedBuilds[path] = nil
            let gone = known.componentNames.joined(separator: " ")
            logger.info("plugin \(path) was removed; components [\(gone)] are gone")
            automation?.emit(.pluginRemoved(path: path, components: known.componentNames))
            return isolatedComponentsChanged()
        }
        // The file is hashed off the main thread (a few MiB take seconds in a debug build); an unchanged build
        // (the same bytes copied again) goes no further.
        DispatchQueue.global().async { [weak self] in
            let hash = try? PluginManifest.sha256(ofFile: path)
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.isolatedFileHashed(path, sha256: hash) } }
        }
    }

    /// ``isolatedFileChanged(_:)`` once the file's SHA-256 is known (`nil`: it could not be read).
    func isolatedFileHashed(_ path: String, sha256: String?) {
        if let sha256, isolatedBuilds[path]?.sha256 == sha256 { return }
        let known = isolated.first { $0.path == path }
        let staged: (path: String, sha256: String)
        switch registry.stage(path, sha256: sha256) {
        case .success(let copy): staged = copy
        case .failure(let error):
            logger.error("\(error.description)")
            automation?.emit(.pluginReloadFailed(path: path, error: error.description))
            return
        }
        if isolatedBuilds[path]?.sha256 == staged.sha256 { return }
        let started = DispatchTime.now().uptimeNanoseconds
        guard let known else {
            IsolatedPlugin.start(path: path, file: staged.path, launcher: launcher, logger: logger) {
                [weak self] outcome in
                guard let self else { return }
                switch outcome {
                case .success(let plugin):
                    observe(plugin)
                    isolated.append(plugin)
                    isolatedBuilds[path] = (staged.sha256, 1)
                    let names = plugin.componentNames.joined(separator: " ")
                    logger.info("plugin \(path) was added: \(plugin.id) [\(names)]")
                    automation?.emit(.pluginAdded(path: path, id: plugin.id, components: plugin.componentNames))
                    isolatedComponentsChanged()
                case .failure(let error):
                    logger.error("\(error.description)")
                    automation?.emit(.pluginReloadFailed(path: path, error: error.description))
                }
            }
            return
        }
        let namesBefore = known.componentNames
        let wasDisabled = known.disabled
        // The new build loads in a new worker while the old one serves; nothing here waits.
        known.reload(from: staged.path) { [weak self, weak known] reinstantiated, error in
            guard let self, let known else { return }
            guard let reinstantiated else {
                let description = error?.description ?? "plugin \(path) did not load"
                logger.error("\(description)")
                automation?.emit(.pluginReloadFailed(path: path, error: description))
                return
            }
            let generation = (isolatedBuilds[path]?.generation ?? 1) + 1
            isolatedBuilds[path] = (staged.sha256, generation)
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            logger.info(
                """
                plugin \(known.id) reloaded in a new worker (generation \(generation), \
                \(String(format: "%.1f", milliseconds)) ms)
                """)
            automation?.emit(
                .pluginReloaded(
                    path: path, id: known.id, generation: generation, components: known.componentNames,
                    reinstantiated: reinstantiated, milliseconds: milliseconds, residentKilobytesDelta: 0))
            // A plugin disabled after a bad build is announced again once a good one serves.
            if known.componentNames != namesBefore || wasDisabled { isolatedComponentsChanged() }
        }
    }

    /// Hot reload: a plugin file changed while the host runs.
    func pluginFileChanged(_ path: String) {
        switch registry.fileChanged(path) {
        case .unchanged:
            return
        case .failed(let path, let error):
            automation?.emit(.pluginReloadFailed(path: path, error: error))
        case .removed(let path, let components):
            logger.info("plugin \(path) was removed; components [\(components.joined(separator: " "))] are gone")
            // Instances go before the plugin's shutdown (below); a name another plugin also serves is reloaded.
            let orphans = components.filter { registry.owner(of: $0) == nil }
            let adopted = components.filter { registry.owner(of: $0) != nil }
            for navigator in windows.allNavigators {
                navigator.destroyComponents(named: orphans, registrations: registry.registrations)
                _ = navigator.reloadComponents(named: adopted, registrations: registry.registrations)
            }
            automation?.emit(.pluginRemoved(path: path, components: components))
        case .added(let generation):
            let plugin = generation.plugin
            logger.info("plugin \(path) was added: \(plugin.id) [\(plugin.componentNames.joined(separator: " "))]")
            automation?.emit(.pluginAdded(path: path, id: plugin.id, components: plugin.componentNames))
        case .reloaded(let generation, let previous, let milliseconds, let residentDelta):
            let names = previous.plugin.componentNames.filter { registry.owner(of: $0)?.sourcePath == path }
            var reloaded: [String] = []  // the instances renewed on the screen shown (of the tab shown)
            for navigator in windows.allNavigators {
                let done = navigator.reloadComponents(named: names, registrations: registry.registrations)
                if navigator === windows.shownNavigator { reloaded = done }
            }
            let sign = residentDelta >= 0 ? "+" : ""
            logger.info(
                """
                plugin \(generation.plugin.id) reloaded (generation \(generation.number), \
                \(String(format: "%.1f", milliseconds)) ms, RSS \(sign)\(residentDelta) KiB)
                """)
            automation?.emit(
                .pluginReloaded(
                    path: path, id: generation.plugin.id, generation: generation.number,
                    components: generation.plugin.componentNames, reinstantiated: reloaded,
                    milliseconds: milliseconds, residentKilobytesDelta: residentDelta))
        }
        // The replaced or removed build's instances are gone now: its plugin gets its shutdown.
        registry.retireReplaced()
        if windows.setComponentNames(registry.componentNames) {
            let names = registry.componentNames
            logger.info(
                "the set of components changed to [\(names.joined(separator: " "))]: user agent updated, page reloaded")
            automation?.emit(.hostComponents(components: names, userAgent: window.userAgent))
        }
    }
}
