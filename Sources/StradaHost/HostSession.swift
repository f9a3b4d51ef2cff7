import Foundation
public import Logging
import StradaAutomation
public import StradaCore
import StradaEngineGTK
import StradaNavigation
public import StradaPluginHost

/// One run of the host: loads the plugins (in process, staged for hot reload, or in worker processes),
/// opens the window, reports on the automation channel and carries out its commands, and applies the
/// web-process crash policy. `strada-host run` builds one from its arguments and runs it.
@MainActor
public final class HostSession {
    private let configuration: HostConfiguration
    private let loop = MainLoop()
    private let window: BrowserWindow
    private let navigator: Navigator
    private let pathConfiguration: PathConfigurationStore
    private let permissions: PermissionStore
    private let automation: AutomationChannel?
    private let automationSocket: AutomationSocket?
    private let output: HostOutput
    private let logger: Logger
    private let registry: PluginRegistry
    private let launcher: PluginProcessLauncher
    private var isolated: [IsolatedPlugin] = []
    /// `--isolate --watch`: the content hash each isolated plugin file was last loaded from, and its generation.
    private var isolatedBuilds: [String: (sha256: String, generation: Int)] = [:]
    private var watcher: DirectoryWatcher?
    private var recentCrashes: [Date] = []

    /// Opens the display and builds the session. Throws ``HostError/noDisplay`` when there is no display, and
    /// ``HostError/displayUnreachable(_:)`` when the one the environment names cannot be opened.
    public init(
        configuration: HostConfiguration, launcher: PluginProcessLauncher, output: HostOutput, logger: Logger
    ) throws(HostError) {
        try Self.openDisplay(logger: logger)
        StartupTimeline.mark("display")
        self.configuration = configuration
        self.launcher = launcher
        self.output = output
        self.logger = logger
        var socket: AutomationSocket?
        if let path = configuration.automationSocket {
            do { socket = try AutomationSocket(path: path) } catch { throw HostError(description: error.description) }
        }
        automationSocket = socket
        // One channel, written to stdout (--automation) and to the socket's clients (--automation-socket).
        let toStdout = configuration.automationEvents != nil
        let channel: AutomationChannel? =
            toStdout || socket != nil
            ? AutomationChannel(
                eventPrefixes: configuration.automationEvents ?? [""],
                writeEvent: { event, line in
                    if toStdout { output.automation(line) }
                    socket?.send(event, line: line)
                }) : nil
        automation = channel
        BrowserWindow.onStartupPhase = { phase in
            StartupTimeline.mark(phase)
            if phase == "firstFrame", let report = StartupTimeline.report {
                channel?.emit(
                    .hostStartup(phases: report.phases, mainClock: report.mainClock, beforeMain: report.beforeMain))
            }
        }

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
        if configuration.webDriver {
            // The driver's automation session holds the website data (the web view it drives and any modal).
            BrowserWindow.websiteData = .automation
        } else if configuration.ephemeral {
            BrowserWindow.websiteData = .ephemeral
        } else {
            let folders = configuration.websiteDataDirectories
            BrowserWindow.websiteData = .persistent(data: folders.data, cache: folders.cache)
            logger.debug("website data in \(folders.data) and \(folders.cache)")
        }
        permissions = PermissionStore(
            file: configuration.ephemeral ? nil : configuration.websiteDataDirectories.data + "/permissions.json",
            logger: logger)
        BrowserWindow.setIdentity(id: configuration.appID, name: configuration.title)
        let restored = configuration.ephemeral ? nil : WindowState.load(from: configuration.windowStateFile)
        window = BrowserWindow(
            title: configuration.title, componentNames: names, originPolicy: configuration.originPolicy,
            userAgentPrefix: configuration.userAgentPrefix, webDriver: configuration.webDriver, logger: logger,
            size: restored.map { ($0.width, $0.height) } ?? configuration.windowSize)
        if restored?.maximized == true { window.maximize() }
        if let scheme = configuration.colorScheme { window.applyColorScheme(scheme) }
        window.onWebDriverSession = { id in
            logger.info("WebDriver session \(id) started: the driver drives the page")
            channel?.emit(.webDriverStarted(session: id))
        }
        navigator = Navigator(
            window: window, registrations: registrations, originPolicy: configuration.originPolicy, logger: logger)
        navigator.report = { event in channel?.emit(event) }
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
        navigator.pathProperties = { [pathConfiguration] url in pathConfiguration.current.properties(for: url) }
        let handles = window.gtkHandles
        PluginHostExtensions.offerGTKHandles(
            window: handles.window, headerBar: handles.headerBar, webView: handles.webView)
        if configuration.benchmarkEchoChannel {
            window.installEchoBenchmark { result in channel?.emit(.benchmarkRoundtrip(result: result)) }
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
        let where_ = configuration.isolate ? " in worker processes" : ""
        logger.info("loaded \(plugins.count) plugin(s)\(where_): components [\(names.joined(separator: " "))]")
        StartupTimeline.mark("ready")
        channel?.emit(.hostReady(userAgent: window.userAgent, components: names, plugins: plugins))

        wire(window, to: navigator)
        window.onPageEvent = { [weak self, navigator] event in
            if let automation = AutomationEvent(event) { channel?.emit(automation) }
            guard !navigator.handle(event) else { return }
            switch event {
            case .permissionRequested(let request): if let self { self.decide(request, in: self.window) }
            case .notification(let title, let body): self?.show(notification: title, body: body)
            case .closeRequestedByPage: self?.quit(0, "the page called window.close()")
            case .windowClosed: self?.quit(0, "the window was closed")
            case .webProcessTerminated: self?.webProcessDied()
            default: break
            }
        }
        navigator.makeModal = { [weak self] url, properties in self?.presentModal(url, properties: properties) }
        BrowserWindow.onDownload = { [weak self] path, error in self?.downloadEnded(path, error: error) }
        if toStdout { channel?.readCommands(fromFD: 0, handler: { [weak self] command in self?.perform(command) }) }
        if let socket {
            // A client connecting late is greeted with the screens shown now (after the start-up events).
            let reportsScreens = channel?.wants(.screenPushed) == true
            socket.currentState = { [weak navigator] in
                guard reportsScreens, let navigator else { return [] }
                return navigator.screens.map(AutomationEvent.screenPushed)
            }
            socket.start { [weak self] command in self?.perform(command) }
            logger.info("automation socket: \(socket.path)")
        }
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
    public func run() -> Int32 {
        if let application = Self.application {
            window.join(application)
            application.onVisit = { [weak self] url in self?.visitFromLaterLaunch(url) }
            application.onActivate = { [weak self] in self?.window.present() }
        }
        // Files and cached server copies apply before the first visit is routed; servers answer later.
        pathConfiguration.load()
        navigator.nativeScreen = { [registry, pathConfiguration, logger] url in
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
        // The load first: the web process starts while the window is shown and laid out.
        window.load(url: configuration.startURL)
        window.present()
        StartupTimeline.mark("present")
        return loop.run()
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

    /// The web content process died: reload the page (a new process), unless it keeps dying.
    private func webProcessDied() {
        let now = Date()
        recentCrashes = recentCrashes.filter { now.timeIntervalSince($0) < 30 } + [now]
        if recentCrashes.count >= 3 {
            quit(3, "the web content process died 3 times in 30 s")
        } else {
            logger.warning("the web content process died; reloading the page")
            window.reload()
        }
    }

    // MARK: One instance per app

    /// The app's registration on the session bus, made by ``handOverToRunningApp(_:logger:)``.
    private static var application: DesktopApplication?

    /// One instance per app: unless the configuration is ephemeral, registers the app's id on the session
    /// bus. When the app is already running, hands it ``HostConfiguration/requestedURL`` (or asks it to show
    /// its window) and returns `true`: this launch is done. Call it before creating the session. Without a
    /// session bus every launch runs on its own.
    public static func handOverToRunningApp(_ configuration: HostConfiguration, logger: Logger) throws(HostError)
        -> Bool
    {
        guard !configuration.ephemeral else { return false }
        try openDisplay(logger: logger)
        StartupTimeline.mark("display")
        guard SessionBus.reachable else {
            logger.debug("no session bus: \(configuration.appID) runs on its own")
            return false
        }
        let application = DesktopApplication(id: configuration.appID)
        let registration = application.register()
        StartupTimeline.mark("application")
        switch registration {
        case .alreadyRunning:
            application.handOver(url: configuration.requestedURL)
            logger.info("\(configuration.appID) is already running: handed it over and exiting")
            return true
        case .failed(let reason):
            logger.warning("\(configuration.appID) runs on its own: the session bus refused it (\(reason))")
        case .primary:
            Self.application = application
        }
        return false
    }

    /// Whether the display is open (once a process).
    private static var displayOpen = false

    /// Opens the display, once a process. First makes the session bus address safe for WebKit (see
    /// ``SessionBus``), and says so when it had to drop a stale one.
    private static func openDisplay(logger: Logger) throws(HostError) {
        guard !displayOpen else { return }
        switch SessionBus.settleAddress() {
        case .kept:
            break
        case .narrowed(let list):
            logger.debug("DBUS_SESSION_BUS_ADDRESS \(list) narrowed to its first usable entry for WebKit's sandbox")
        case .dropped(let paths):
            let without =
                SessionBus.reachable
                ? "going on with the user's bus \(SessionBus.userBus ?? "")"
                : "going on without a session bus (one instance per app and notifications are off)"
            let named = paths.map { "unix:path=\($0)" }.joined(separator: ", ")
            let exist = paths.count == 1 ? "does not exist" : "do not exist"
            logger.warning(
                "DBUS_SESSION_BUS_ADDRESS names \(named), which \(exist); \(without). Unset it or start a bus")
        }
        if case .replaced(let folder, let replacement) = RuntimeFolder.settle() {
            logger.info(
                """
                the runtime folder \(folder) is \(folder.utf8.count) bytes long, too long for WebKit's sandbox \
                sockets (a socket path is at most 107 bytes): using \(replacement) (set a shorter XDG_RUNTIME_DIR)
                """)
        }
        guard Display.open() else { throw Display.name.map(HostError.displayUnreachable) ?? .noDisplay }
        displayOpen = true
        if Display.openedOnSecondTry {
            logger.info(
                """
                the X display dropped the first connection and took the second (an X server resetting as its last \
                client left; Xvfb -noreset avoids it)
                """)
        }
    }

    /// A later launch of the app asked for `url`: the window visits it (a new main stack, as `navigate`).
    private func visitFromLaterLaunch(_ url: String) {
        logger.info("a later launch asked for \(url)")
        navigator.navigate(url)
        window.present()
    }

    private func quit(_ code: Int32, _ reason: String) {
        if !configuration.ephemeral {
            let (width, height, maximized) = window.savedState
            do {
                try WindowState(width: width, height: height, maximized: maximized)
                    .save(to: configuration.windowStateFile)
            } catch {
                logger.warning("could not keep the window's size in \(configuration.windowStateFile): \(error)")
            }
        }
        navigator.tearDown()
        registry.shutdownAll()
        for plugin in isolated { plugin.shutdown() }
        logger.info("exiting (\(code)): \(reason)")
        automation?.emit(.hostExit(code: code, reason: reason))
        automationSocket?.close()
        loop.quit(exitCode: code)
    }

    // MARK: Automation commands

    private func perform(_ command: AutomationCommand) {
        let name = command.name.rawValue
        switch command {
        case .activate(let id):
            act(name, id) { (controls) throws(ControlActionError) in try controls.activate(id: id) }
        case .choose(let id, let index):
            act(name, id) { (controls) throws(ControlActionError) in try controls.choose(id: id, index: index) }
        case .dismiss(let id):
            act(name, id) { (controls) throws(ControlActionError) in try controls.dismiss(id: id) }
        case .confirm(let id):
            act(name, id) { (controls) throws(ControlActionError) in try controls.confirm(id: id) }
        case .type(let id, let text):
            act(name, id) { (controls) throws(ControlActionError) in try controls.type(id: id, text: text) }
        case .reload:
            (navigator.modal ?? navigator).refresh()
            automation?.emit(.commandOK(command: name))
        case .dismissModal:
            if navigator.dismissModal(reason: "command") {
                automation?.emit(.commandOK(command: name))
            } else {
                automation?.emit(.commandError(command: name, error: "no modal is presented"))
            }
        case .retry:
            if (navigator.modal ?? navigator).retry() {
                automation?.emit(.commandOK(command: name))
            } else {
                automation?.emit(.commandError(command: name, error: "no error screen is shown: nothing to retry"))
            }
        case .navigate(let url):
            navigator.navigate(url)
            automation?.emit(.commandOK(command: name, details: ["url": .string(url)]))
        case .visit(let url, let action):
            (navigator.modal ?? navigator).visit(url, action: VisitAction(turbo: action))
            automation?.emit(.commandOK(command: name, details: ["url": .string(url), "action": .string(action)]))
        case .back:
            let active = navigator.modal ?? navigator
            if active.back() {
                let depth = (navigator.modal ?? navigator).stack.count
                automation?.emit(.commandOK(command: name, details: ["depth": .number(Double(depth))]))
            } else {
                automation?.emit(.commandError(command: name, error: "there is no screen to go back to"))
            }
        case .listControls:
            automation?.emit(.controls(activeWindow.controls.snapshots.map(\.json)))
        case .screenshot(let path):
            screenshot(to: path)
        case .call(let pluginID, let action, let arguments):
            call(pluginID, action, arguments)
        case .quit:
            quit(0, "quit command")
        }
    }

    /// Saves the whole window to `path` (once every part of it has been drawn: see `saveScreenshot`).
    private func screenshot(to path: String) {
        window.saveScreenshot(to: path) { [weak self] error in
            if let error {
                self?.automation?.emit(
                    .commandError(
                        command: "screenshot", error: "the window could not be rendered to \(path): \(error)",
                        details: ["path": .string(path)]))
            } else {
                self?.automation?.emit(.commandOK(command: "screenshot", details: ["path": .string(path)]))
            }
        }
    }

    private func call(_ pluginID: String, _ action: String, _ arguments: [JSON]) {
        let details: JSONObject = ["plugin": .string(pluginID), "action": .string(action)]
        if let worker = isolated.first(where: { $0.id == pluginID }) {
            worker.call(action: action, arguments: arguments) { [weak self] result, error in
                guard let result else {
                    let error = error ?? "no result"
                    self?.automation?.emit(.commandError(command: "call", error: error, details: details))
                    return
                }
                var withResult = details
                withResult["result"] = result
                self?.automation?.emit(.commandOK(command: "call", details: withResult))
            }
            return
        }
        guard let plugin = registry.plugin(id: pluginID) else {
            automation?.emit(.commandError(command: "call", error: "no loaded plugin with id \(pluginID)"))
            return
        }
        do {
            let result = try plugin.call(action: action, arguments: arguments)
            var withResult = details
            withResult["result"] = result
            automation?.emit(.commandOK(command: "call", details: withResult))
        } catch {
            automation?.emit(.commandError(command: "call", error: error.reason, details: details))
        }
    }

    /// Runs one automation action on a control and reports its outcome.
    private func act(_ command: String, _ id: String, _ body: (WindowControls) throws(ControlActionError) -> Void) {
        do {
            try body(activeWindow.controls)
            automation?.emit(.commandOK(command: command, details: ["control": .string(id)]))
        } catch {
            automation?.emit(
                .commandError(command: command, error: error.description, details: ["control": .string(id)]))
        }
    }
}

// MARK: Windows and modals

extension HostSession {
    /// The window the user acts in: the modal when one is presented, else the main window.
    private var activeWindow: BrowserWindow { (navigator.modal?.window as? BrowserWindow) ?? window }

    /// What every window reports, whichever stack it shows: bridge traffic (the navigator renews stale
    /// components at "ready"; trace lines; automation events), control changes, and where navigations go.
    private func wire(_ window: BrowserWindow, to navigator: Navigator) {
        let channel = automation, trace = configuration.trace, output = output
        // Asked once: every message and every reply comes through here.
        let reportsReceived = trace || channel?.wants(.bridgeReceived) == true
        let reportsSent = trace || channel?.wants(.bridgeSent) == true
        window.bridge.observer = { [weak navigator] traffic in
            switch traffic {
            case .received: guard reportsReceived else { return }
            case .sent: guard reportsSent else { return }
            // A fresh document: the navigator renews stale components before the bridge answers "ready".
            case .ready: navigator?.bridgeReady()
            default: break
            }
            if trace { output.trace(Trace.line(for: traffic)) }
            guard let channel, channel.wants(AutomationEvent.name(of: traffic)) else { return }
            channel.emit(AutomationEvent(traffic))
        }
        window.controls.observer = { change in channel?.emit(AutomationEvent(change)) }
        if channel != nil { window.controls.launchesBrowser = false }
        window.decideRoute = { [weak navigator] request in navigator?.route(request) ?? false }
    }

    /// A modal over the main window for a visit to `url`: its own window (sized by the rule's
    /// `modal_style`, or `width` and `height`), web view, bridge and screen stack, with the path
    /// configuration and native screens of the main one.
    private func presentModal(_ url: String, properties: PathProperties) -> Navigator? {
        let registrations = navigator.registrations
        let size = properties.modalSize(over: window.size)
        let modalWindow = BrowserWindow(
            title: configuration.title, componentNames: ComponentRegistration.uniqueNames(registrations),
            originPolicy: configuration.originPolicy, userAgentPrefix: configuration.userAgentPrefix, logger: logger,
            modalOver: window, size: size)
        let modal = Navigator(
            window: modalWindow, registrations: registrations, originPolicy: configuration.originPolicy,
            logger: logger, kind: .modal)
        modal.report = navigator.report
        modal.pathProperties = navigator.pathProperties
        modal.nativeScreen = navigator.nativeScreen
        wire(modalWindow, to: modal)
        let channel = automation
        modalWindow.onPageEvent = { [weak self, weak modal] event in
            if let automation = AutomationEvent(event) { channel?.emit(automation) }
            guard let self, let modal, !modal.handle(event) else { return }
            switch event {
            case .permissionRequested(let request): self.decide(request, in: modalWindow)
            case .notification(let title, let body): self.show(notification: title, body: body)
            case .closeRequestedByPage: self.navigator.dismissModal(reason: "closed by the page")
            case .webProcessTerminated: modalWindow.reload()
            default: break
            }
        }
        logger.info("presenting \(url) in a modal (\(size.width)×\(size.height))")
        modalWindow.load(url: url)
        modalWindow.present()
        channel?.emit(.modalPresented(url: url, width: size.width, height: size.height))
        return modal
    }

    // MARK: What browsers do that an app needs

    /// A page asks for a permission: a remembered answer applies at once; otherwise the user is asked in the
    /// page's window, and the answer is remembered for the app.
    private func decide(_ request: PermissionRequest, in window: BrowserWindow) {
        let origin = request.origin, kind = request.kind
        if let allowed = permissions.answer(origin: origin, kind: kind) {
            request.answer(allowed)
            automation?.emit(.permissionAnswered(origin: origin, kind: kind, allowed: allowed, remembered: true))
            return
        }
        let host = URLComponents(string: origin)?.host ?? origin
        let question = PermissionStore.question(kind: kind, host: host)
        window.ask(
            id: "permission.\(kind)", title: question.title, message: question.message, yes: "Allow", no: "Deny"
        ) { [weak self] allowed in
            request.answer(allowed)
            self?.permissions.remember(origin: origin, kind: kind, allowed: allowed)
            self?.automation?.emit(
                .permissionAnswered(origin: origin, kind: kind, allowed: allowed, remembered: false))
        }
    }

    /// A web notification: a desktop notification from the app (GNotification) when it is on a session bus,
    /// else a toast in the window; reported either way.
    private func show(notification title: String, body: String) {
        if Self.application?.notify(title: title, body: body) == true { return }
        activeWindow.toast(body.isEmpty ? title : "\(title): \(body)")
    }

    /// A download ended: a toast saying where the file is; reported.
    private func downloadEnded(_ path: String, error: String?) {
        if let error {
            logger.warning("the download to \(path) failed: \(error)")
            activeWindow.toast("Download failed: \(error)")
            automation?.emit(.downloadFailed(path: path, error: error))
        } else {
            logger.info("downloaded \(path)")
            activeWindow.toast("Downloaded \((path as NSString).lastPathComponent) to Downloads")
            automation?.emit(.downloadFinished(path: path))
        }
    }
}
