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
    let configuration: HostConfiguration
    private let loop = MainLoop()
    let desktop: DesktopIntegration
    let automationService: AutomationService
    let windows: WindowStack
    let pathConfiguration: PathConfigurationStore
    let logger: Logger
    let launcher: PluginProcessLauncher
    /// Every plugin of this run, in the host's process or in workers; what hot reload sees.
    let plugins: HostPlugins
    /// The plugins in the host's process.
    var registry: PluginRegistry { plugins.registry }
    /// The plugins in worker processes.
    var workers: IsolatedPlugins { plugins.workers }
    var isolated: [IsolatedPlugin] { workers.plugins }
    var watcher: DirectoryWatcher?

    /// Where events go (`nil`: the session has no automation channel).
    var automation: AutomationChannel? { automationService.channel }
    /// The main window.
    var window: BrowserWindow { windows.main }
    /// The main window's navigator.
    var navigator: Navigator { windows.navigator }

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

        PluginGrants.overrides = configuration.grants
        PluginGrants.isolateEveryPlugin = configuration.isolate
        PluginGrants.sandboxEveryPlugin = configuration.sandbox
        if configuration.requireSignedPlugins {
            do {
                PluginSignatures.require(try TrustedKeys())
            } catch {
                logger.error("\(error); no plugin can be trusted, so none loads")
                PluginSignatures.require(TrustedKeys.none)
            }
        }
        // A plugin that crashed the host in an earlier start (and is unchanged since) runs in a worker; a crash in
        // a plugin call from now on is named in one line and recorded for the next start.
        var crashes = PluginCrashRecord()
        crashes.forgetChangedFiles()
        PluginCrashRecord.installHandler(file: crashes.file)
        if !configuration.isolate && !configuration.sandbox {
            let crashed = crashes.crashed(inFolders: configuration.pluginDirectories)
            for (_, line) in crashed { logger.warning("\(line)") }
            PluginGrants.crashedInProcess = Set(crashed.map(\.path))
        }
        let registry = PluginRegistry(
            directories: configuration.pluginDirectories, staging: configuration.watch, launcher: launcher,
            logger: logger)
        // Each plugin where its placement says: in the host's process (declared now, opened when first used) or
        // in a worker of its own (declared ones: started when first used).
        let plan = HostPlugins.plan(configuration.pluginDirectories)
        var report = registry.loadAll(except: Set(plan.isolated))
        let started = Self.startWorkers(
            plan.isolated, declarations: registry.declarations(ofIsolated: plan.isolated),
            registry: registry, staging: configuration.watch, launcher: launcher, logger: logger)
        report.errors += started.errors
        report.conflicts += started.conflicts
        plugins = HostPlugins(
            registry: registry,
            workers: IsolatedPlugins(
                started.isolated, launcher: launcher, remember: registry.rememberLoaded, logger: logger),
            plan: plan, logger: logger)
        let registrations = plugins.registrations
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
        pathConfiguration.warn = { source, notices in
            channel?.emit(.pathConfigurationWarning(source: source, warnings: notices.map(\.json)))
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

        // In process, plugins are declared at start and opened when first used: the list is what they provide.
        let listed: [JSON] =
            registry.statuses.map { plugin -> JSON in
                [
                    "id": .string(plugin.id ?? ""), "version": .string(plugin.version ?? ""),
                    "path": .string(plugin.path),
                    "components": .array(plugin.components.map(JSON.string)), "isolated": false,
                ]
            }
            + isolated.map { plugin -> JSON in
                [
                    "id": .string(plugin.id), "version": .string(plugin.version), "path": .string(plugin.path),
                    "components": .array(plugin.componentNames.map(JSON.string)), "isolated": true,
                ]
            }
        let placement =
            isolated.isEmpty
            ? "" : registry.members.isEmpty ? " in worker processes" : " (\(isolated.count) in workers)"
        logger.info("loaded \(listed.count) plugin(s)\(placement): components [\(names.joined(separator: " "))]")
        StartupTimeline.mark("ready")
        channel?.emit(.hostReady(userAgent: windows.main.userAgent, components: names, plugins: listed))

        registry.onLateProbe = { [weak self] outcome in self?.pluginAnsweredLate(outcome) }
        registry.onOpenFailed = { error in
            channel?.emit(.pluginError(path: error.path, reason: error.reason, message: error.description))
        }
        windows.onQuit = { [weak self] code, reason in self?.quit(code, reason) }
        desktop.networkSession.onDownload = { [desktop, windows] path, error in
            desktop.downloadEnded(path, error: error, in: windows.activeWindow)
        }
        automationService.start(
            target: self, greeting: { [windows] in windows.shownNavigator.screens.map(AutomationEvent.screenPushed) })
        for plugin in isolated { observe(plugin) }
        workers.onStarted = { [weak self] plugin in self?.observe(plugin) }
        registry.onSwap = { [weak self] names in
            guard let self else { return [] }
            var reloaded: [String] = []  // the instances renewed on the screen shown (of the tab shown)
            for navigator in windows.allNavigators {
                let done = navigator.reloadComponents(named: names, registrations: plugins.registrations)
                if navigator === windows.shownNavigator { reloaded = done }
            }
            return reloaded
        }
        if configuration.watch {
            let directories = configuration.pluginDirectories
            do {
                watcher = try DirectoryWatcher(paths: directories) { [weak self] path in
                    self?.pluginFileChanged(path)
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
        windows.loadStartPage(configuration.startURL, requested: configuration.requestedURL)
        windows.main.present()
        StartupTimeline.mark("present")
        return loop.run()
    }

    /// The plugin's native screen the path configuration makes `url`, or `nil` for the web page. A screen named
    /// by `view_controller` that no plugin provides is a warning (the web page is the documented fallback); one
    /// named only by Android's `uri` is not (Android documents name a destination on every rule).
    private func nativeScreen(for url: String) -> NativeScreen? {
        let properties = pathConfiguration.current.properties(for: url)
        let names = properties.nativeScreenNames
        guard !names.isEmpty else { return nil }
        let provider = names.lazy.compactMap { name in
            self.registry.nativeScreenProvider(named: name).map { (name, $0) }
        }
        guard let (name, plugin) = provider.first else {
            if properties.viewController != nil {
                logger.warning(
                    """
                    the path configuration makes \(url) native screen "\(names[0])", but no plugin loaded in the \
                    host provides it (a plugin in a worker process cannot); showing the web page
                    """)
            } else {
                logger.debug("no plugin provides a native screen for uri \(names[0]) (\(url)); showing the web page")
            }
            return nil
        }
        guard PluginGrants.grant(for: plugin.id, manifest: plugin.manifest).allows(.nativeScreens) else {
            let refusal = PluginGrants.refusal(plugin: plugin.id, capability: .nativeScreens, doing: "screen \(name)")
            logger.warning("\(refusal); showing the web page")
            return nil
        }
        guard let screen = plugin.makeNativeScreen(named: name, url: url, propertiesJSON: properties.json.serialized())
        else {
            logger.error("plugin \(plugin.id) could not build native screen \"\(name)\"; showing the web page")
            return nil
        }
        return screen
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
        for navigator in windows.allNavigators { navigator.tearDown() }
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

    func appChrome() -> JSONObject {
        let developer = configuration.developer
        return [
            "menu": .object(PrimaryMenu(appItems: configuration.menuItems, appName: configuration.title).json),
            "about": .object(windows.about.json),
            "shortcuts": .object(WindowShortcuts.json(developer: developer, tabs: configuration.tabs.map(\.title))),
            "developer": .bool(developer),
        ]
    }

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

    func navigate(_ url: String) { windows.shownNavigator.navigate(url) }

    func dismissModal() -> Bool { windows.shownNavigator.dismissModal(reason: "command") }

    func selectTab(_ index: Int) -> String? { windows.selectTab(index) }

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
