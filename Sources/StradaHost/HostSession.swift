import Foundation
package import Logging
import StradaAutomation
import StradaCore
import StradaEngineGTK
import StradaNavigation
package import StradaPluginHost

/// One run of the host, composed of services: the plugins (in process, staged for hot reload, or in worker
/// processes), the ``WindowStack`` (the main window, its modal, their navigators), the
/// ``DesktopIntegration`` (display, session bus, website data, permissions, notifications, downloads, window
/// state), the ``AutomationService`` (events out, commands in) and the path configuration. Its `init` builds
/// and connects them; ``run()`` shows the window and runs the loop. `strada-host run` builds one from its
/// arguments and runs it.
@MainActor
package final class HostSession {
    private let configuration: HostConfiguration
    private let loop = MainLoop()
    private let desktop: DesktopIntegration
    private let automationService: AutomationService
    private let windows: WindowStack
    private let pathConfiguration: PathConfigurationStore
    private let logger: Logger
    private let registry: PluginRegistry
    private let launcher: PluginProcessLauncher
    private var isolated: [IsolatedPlugin] = []
    /// `--isolate --watch`: the content hash each isolated plugin file was last loaded from, and its generation.
    private var isolatedBuilds: [String: (sha256: String, generation: Int)] = [:]
    private var watcher: DirectoryWatcher?

    /// Where events go (`nil`: the session has no automation channel).
    private var automation: AutomationChannel? { automationService.channel }
    /// The main window.
    private var window: BrowserWindow { windows.main }
    /// The main window's navigator.
    private var navigator: Navigator { windows.navigator }

    /// Opens the display and builds the session. Throws ``HostError/noDisplay`` when there is no display,
    /// ``HostError/displayUnreachable(_:)`` when the one the environment names cannot be opened, and when the
    /// automation socket cannot be opened.
    package init(
        configuration: HostConfiguration, launcher: PluginProcessLauncher, output: HostOutput, logger: Logger
    ) throws(HostError) {
        try DesktopIntegration.openDisplay(logger: logger)
        StartupTimeline.mark("display")
        self.configuration = configuration
        self.launcher = launcher
        self.logger = logger
        automationService = try AutomationService(configuration: configuration, output: output, logger: logger)
        let channel = automationService.channel

        registry = PluginRegistry(
            directories: configuration.pluginDirectories, staging: configuration.watch, launcher: launcher,
            logger: logger)
        var report = PluginLoadReport()
        let registrations: [ComponentRegistration]
        if configuration.isolate {
            (report, registrations) = Self.startWorkers(
                configuration.pluginDirectories, staging: configuration.watch ? registry : nil, launcher: launcher,
                logger: logger)
            isolated = report.isolated
        } else {
            report = registry.loadAll()
            registrations = registry.registrations
        }
        StartupTimeline.mark("plugins")
        for error in report.errors {
            channel?.emit(.pluginError(path: error.path, reason: error.reason, message: error.description))
        }
        let names = ComponentRegistration.uniqueNames(registrations)

        desktop = DesktopIntegration(configuration: configuration, automation: channel, logger: logger)
        pathConfiguration = PathConfigurationStore(
            sources: configuration.pathConfigurationSources,
            cacheDirectory: configuration.pathConfigurationCache ?? PathConfigurationStore.defaultCacheDirectory,
            logger: logger)
        pathConfiguration.report = { source, outcome in
            switch outcome {
            case .success(let rules): channel?.emit(.pathConfigurationLoaded(source: source, rules: rules))
            case .failure(let error): channel?.emit(.pathConfigurationError(source: source, error: error.reason))
            }
        }
        windows = WindowStack(
            configuration: configuration, registrations: registrations, desktop: desktop,
            pathConfiguration: pathConfiguration, automation: channel, output: output, logger: logger,
            onStartupPhase: { phase in StartupTimeline.passed(phase, reportingTo: channel) })
        let handles = windows.main.gtkHandles
        PluginHostExtensions.offerGTKHandles(
            window: handles.window, headerBar: handles.headerBar, webView: handles.webView)
        if configuration.benchmarkEchoChannel {
            windows.main.installEchoBenchmark { result in channel?.emit(.benchmarkRoundtrip(result: result)) }
        }

        let plugins: [JSON] =
            report.plugins.map { plugin -> JSON in
                [
                    "id": .string(plugin.id), "version": .string(plugin.version), "path": .string(plugin.path),
                    "components": .array(plugin.componentNames.map(JSON.string)), "isolated": false,
                ]
            }
            + isolated.map { plugin -> JSON in
                [
                    "id": .string(plugin.id), "version": .string(plugin.version), "path": .string(plugin.path),
                    "components": .array(plugin.componentNames.map(JSON.string)), "isolated": true,
                ]
            }
        let placement = configuration.isolate ? " in worker processes" : ""
        logger.info("loaded \(plugins.count) plugin(s)\(placement): components [\(names.joined(separator: " "))]")
        StartupTimeline.mark("ready")
        channel?.emit(.hostReady(userAgent: windows.main.userAgent, components: names, plugins: plugins))

        windows.onQuit = { [weak self] code, reason in self?.quit(code, reason) }
        desktop.networkSession.onDownload = { [desktop, windows] path, error in
            desktop.downloadEnded(path, error: error, in: windows.activeWindow)
        }
        automationService.start(
            target: self, greeting: { [windows] in windows.navigator.screens.map(AutomationEvent.screenPushed) })
        for plugin in isolated { observe(plugin) }
        if configuration.watch {
            let directories = configuration.pluginDirectories
            for plugin in isolated {
                guard let hash = try? PluginManifest.sha256(ofFile: plugin.path) else { continue }
                isolatedBuilds[plugin.path] = (hash, 1)
            }
            do {
                watcher = try DirectoryWatcher(paths: directories) { [weak self] path in
                    guard let self else { return }
                    if self.configuration.isolate {
                        self.isolatedFileChanged(path)
                    } else {
                        self.pluginFileChanged(path)
                    }
                }
                logger.info("watching \(directories.joined(separator: ", ")) for rebuilt plugins")
                if !configuration.isolate { registry.prepareForReload() }
            } catch {
                logger.error("cannot watch the plugins directories (\(error)); hot reload is off")
            }
        }
    }

    /// Shows the window, loads the start page and runs until the host quits; returns the exit code.
    package func run() -> Int32 {
        desktop.join(
            windows.main, visit: { [weak self] url in self?.windows.visitFromLaterLaunch(url) },
            activate: { [weak self] in self?.windows.main.present() })
        // Files and cached server copies apply before the first visit is routed; servers answer later.
        pathConfiguration.load()
        windows.nativeScreen = { [weak self] url in self?.nativeScreen(for: url) }
        // The load first: the web process starts while the window is shown and laid out.
        windows.main.load(url: configuration.startURL)
        windows.main.present()
        StartupTimeline.mark("present")
        return loop.run()
    }

    /// The plugin's native screen the path configuration makes `url`, or `nil` for the web page (said when a
    /// screen was named but cannot be made).
    private func nativeScreen(for url: String) -> NativeScreen? {
        guard let name = pathConfiguration.current.properties(for: url).viewController else { return nil }
        guard let plugin = registry.nativeScreenProvider(named: name) else {
            logger.error(
                """
                the path configuration makes \(url) native screen "\(name)", but no plugin loaded in the host \
                provides it (plugins run with --isolate cannot); showing the web page
                """)
            return nil
        }
        let properties = pathConfiguration.current.properties(for: url).json.serialized()
        guard let screen = plugin.makeNativeScreen(named: name, url: url, propertiesJSON: properties) else {
            logger.error("plugin \(plugin.id) could not build native screen \"\(name)\"; showing the web page")
            return nil
        }
        return screen
    }

    /// `--isolate`: one worker process per plugin file, all started at once; a plugin that does not load within
    /// ``IsolatedPlugin/helloTimeout`` (its entry point hangs) is one error line, and the host starts without
    /// it. Under `--watch` (`staging`), each worker loads a staged copy, never the watched file.
    private static func startWorkers(
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
    private func observe(_ plugin: IsolatedPlugin) {
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
    private func isolatedComponentsChanged() {
        let registrations = isolated.filter { !$0.disabled }.flatMap(\.registrations)
        _ = navigator.reloadComponents(named: [], registrations: registrations)
        let names = ComponentRegistration.uniqueNames(registrations)
        if window.setComponentNames(names) {
            let list = names.joined(separator: " ")
            logger.info("the set of components changed to [\(list)]: user agent updated, page reloaded")
            automation?.emit(.hostComponents(components: names, userAgent: window.userAgent))
        }
    }

    /// `--isolate --watch`: a plugin file changed. A rebuilt plugin's worker is restarted with the new build
    /// (a staged copy), its live components brought back as after a crash; a new file gets a worker.
    private func isolatedFileChanged(_ path: String) {
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
    private func isolatedFileHashed(_ path: String, sha256: String?) {
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
    private func pluginFileChanged(_ path: String) {
        switch registry.fileChanged(path) {
        case .unchanged:
            return
        case .failed(let path, let error):
            automation?.emit(.pluginReloadFailed(path: path, error: error))
        case .removed(let path, let components):
            logger.info("plugin \(path) was removed; components [\(components.joined(separator: " "))] are gone")
            // Instances go before the plugin's shutdown (below); a name another plugin also serves is reloaded.
            let orphans = components.filter { registry.owner(of: $0) == nil }
            navigator.destroyComponents(named: orphans, registrations: registry.registrations)
            let adopted = components.filter { registry.owner(of: $0) != nil }
            _ = navigator.reloadComponents(named: adopted, registrations: registry.registrations)
            automation?.emit(.pluginRemoved(path: path, components: components))
        case .added(let generation):
            let plugin = generation.plugin
            logger.info("plugin \(path) was added: \(plugin.id) [\(plugin.componentNames.joined(separator: " "))]")
            automation?.emit(.pluginAdded(path: path, id: plugin.id, components: plugin.componentNames))
        case .reloaded(let generation, let previous, let milliseconds, let residentDelta):
            let names = previous.plugin.componentNames.filter { registry.owner(of: $0)?.sourcePath == path }
            let reloaded = navigator.reloadComponents(named: names, registrations: registry.registrations)
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
        if window.setComponentNames(registry.componentNames) {
            let names = registry.componentNames
            logger.info(
                "the set of components changed to [\(names.joined(separator: " "))]: user agent updated, page reloaded")
            automation?.emit(.hostComponents(components: names, userAgent: window.userAgent))
        }
    }

    /// One instance per app: unless the configuration is ephemeral, registers the app's id on the session
    /// bus. When the app is already running, hands it ``HostConfiguration/requestedURL`` (or asks it to show
    /// its window) and returns `true`: this launch is done. Call it before creating the session. Without a
    /// session bus every launch runs on its own.
    package static func handOverToRunningApp(_ configuration: HostConfiguration, logger: Logger) throws(HostError)
        -> Bool
    {
        try DesktopIntegration.handOverToRunningApp(configuration, logger: logger)
    }

    /// Ends the session: keeps the window's state, tears the screens and plugins down, says why, and quits
    /// the loop with `code`.
    private func quit(_ code: Int32, _ reason: String) {
        desktop.keepWindowState(of: windows.main)
        navigator.tearDown()
        registry.shutdownAll()
        for plugin in isolated { plugin.shutdown() }
        logger.info("exiting (\(code)): \(reason)")
        automation?.emit(.hostExit(code: code, reason: reason))
        automationService.close()
        loop.quit(exitCode: code)
    }
}

// MARK: What automation commands act on

extension HostSession: AutomationTarget {
    func act(_ action: ControlAction, control id: String) throws(ControlActionError) {
        try windows.activeWindow.controls.perform(action, control: id)
    }

    func controlSnapshots() -> [JSON] { windows.activeWindow.controls.snapshots.map(\.json) }

    func screenshot(to path: String, completion: @escaping @MainActor (_ error: String?) -> Void) {
        windows.main.saveScreenshot(to: path, done: completion)
    }

    func refresh() { windows.activeNavigator.refresh() }

    func retry() -> Bool { windows.activeNavigator.retry() }

    func back() -> Int? {
        guard windows.activeNavigator.back() else { return nil }
        return windows.activeNavigator.stack.count
    }

    func visit(_ url: String, action: VisitAction) { windows.activeNavigator.visit(url, action: action) }

    func navigate(_ url: String) { navigator.navigate(url) }

    func dismissModal() -> Bool { navigator.dismissModal(reason: "command") }

    func call(
        plugin pluginID: String, action: String, arguments: [JSON],
        completion: @escaping @MainActor (Result<JSON, PluginCallError>) -> Void
    ) {
        if let worker = isolated.first(where: { $0.id == pluginID }) {
            // Under --isolate the action runs in the plugin's worker; nothing waits for it here.
            return worker.call(action: action, arguments: arguments) { result, error in
                completion(result.map { .success($0) } ?? .failure(.failed(reason: error ?? "no result")))
            }
        }
        guard let plugin = registry.plugin(id: pluginID) else { return completion(.failure(.noSuchPlugin)) }
        do { completion(.success(try plugin.call(action: action, arguments: arguments))) } catch {
            completion(.failure(.failed(reason: error.reason)))
        }
    }

    func quit(reason: String) { quit(0, reason) }
}
