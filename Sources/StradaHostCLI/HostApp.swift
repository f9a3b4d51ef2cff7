import Foundation
import Logging
import StradaCore
import StradaEngineGTK
import StradaPluginHost

/// Wires the libraries together for `run`: plugins → window → bridge → automation/trace output.
@MainActor
final class HostApp {
    private let url: String
    private let loop = MainLoop()
    private let window: BrowserWindow
    private let automation: AutomationChannel?
    private let logger = Logger(label: "strada.host")

    static func defaultPluginDirectories() -> [String] {
        FileManager.default.fileExists(atPath: PluginDirectories.userDefault) ? [PluginDirectories.userDefault] : []
    }

    /// `automation`: the event-name prefixes to report on stdout (`[""]` for all), or `nil` for no channel.
    private let registry: PluginRegistry
    private var isolated: [IsolatedPlugin] = []
    private var watcher: DirectoryWatcher?

    init(url: String, originPolicy: OriginPolicy, pluginDirectories: [String], automation: [String]?, benchmarkEchoChannel: Bool, watch: Bool, isolate: Bool, trace: Bool, userAgentPrefix: String?, title: String) {
        self.url = url
        let channel = automation.map { AutomationChannel(eventPrefixes: $0, write: { line in print(line); fflush(nil) }) }
        self.automation = channel

        registry = PluginRegistry(directories: pluginDirectories, staging: watch, logger: logger)
        var report = PluginLoadReport()
        var registrations: [ComponentRegistration]
        if isolate {
            (report, registrations) = Self.startWorkers(pluginDirectories, logger: logger, channel: channel)
            isolated = report.isolated
        } else {
            report = registry.loadAll()
            registrations = registry.registrations
        }
        for error in report.errors {
            channel?.emit("plugin.error", ["path": .string(error.path), "reason": .string(error.reason), "message": .string(error.description)])
        }
        window = BrowserWindow(title: title, components: registrations, originPolicy: originPolicy, userAgentPrefix: userAgentPrefix, logger: logger)
        let handles = window.gtkHandles
        PluginHostExtensions.offerGTKHandles(window: handles.window, headerBar: handles.headerBar, webView: handles.webView)
        if benchmarkEchoChannel {
            window.installEchoBenchmark { result in channel?.emit("benchmark.roundtrip", ["result": result]) }
        }

        let plugins: [JSON] = report.plugins.map { plugin -> JSON in
            [
                "id": .string(plugin.id), "version": .string(plugin.version), "path": .string(plugin.path),
                "components": .array(plugin.componentNames.map(JSON.string)),
            ]
        } + isolated.map { plugin -> JSON in
            [
                "id": .string(plugin.id), "version": .string(plugin.version), "path": .string(plugin.path),
                "components": .array(plugin.componentNames.map(JSON.string)), "isolated": true,
            ]
        }
        let names = ComponentRegistration.uniqueNames(registrations)
        logger.info("loaded \(plugins.count) plugin(s)\(isolate ? " in worker processes" : ""): components [\(names.joined(separator: " "))]")
        channel?.emit("host.ready", [
            "userAgent": .string(window.userAgent), "components": .array(names.map(JSON.string)), "plugins": .array(plugins),
        ])

        window.bridge.observer = { traffic in
            if trace { Self.trace(traffic) }
            channel?.report(traffic)
        }
        window.controls.observer = { change in channel?.report(change) }
        if automation != nil { window.controls.launchesBrowser = false }
        window.onPageEvent = { [weak self] event in
            channel?.report(event)
            switch event {
            case .closeRequestedByPage: self?.quit(0, "the page called window.close()")
            case .windowClosed: self?.quit(0, "the window was closed")
            case .webProcessTerminated: self?.webProcessDied()
            default: break
            }
        }
        channel?.readCommands(fromFD: 0, handler: { [weak self] command in self?.perform(command) }, onEnd: {})
        if watch {
            do {
                watcher = try DirectoryWatcher(paths: pluginDirectories) { [weak self] path in self?.pluginFileChanged(path) }
                logger.info("watching \(pluginDirectories.joined(separator: ", ")) for rebuilt plugins")
            } catch {
                logger.error("cannot watch the plugins directories (\(error)); hot reload is off")
            }
        }
    }

    /// `--isolate`: one worker process per plugin file.
    private static func startWorkers(_ directories: [String], logger: Logger, channel: AutomationChannel?) -> (PluginLoadReport, [ComponentRegistration]) {
        var report = PluginLoadReport()
        var registrations: [ComponentRegistration] = []
        for directory in directories {
            for path in PluginProbe.candidates(in: directory) {
                do {
                    let plugin = try IsolatedPlugin(path: path, logger: logger)
                    plugin.onEvent = { event in
                        switch event {
                        case .crashed(let path, let id, let reason):
                            channel?.emit("plugin.crashed", ["path": .string(path), "id": .string(id), "reason": .string(reason)])
                        case .restarted(let path, let id):
                            channel?.emit("plugin.restarted", ["path": .string(path), "id": .string(id)])
                        case .disabled(let path, let id):
                            channel?.emit("plugin.disabled", ["path": .string(path), "id": .string(id)])
                        }
                    }
                    report.isolated.append(plugin)
                    registrations += plugin.registrations
                } catch {
                    logger.error("\(error.description)")
                    report.errors.append(error)
                }
            }
        }
        return (report, registrations)
    }

    /// Hot reload: a plugin file changed while the host runs.
    private func pluginFileChanged(_ path: String) {
        let change = registry.fileChanged(path)
        switch change {
        case .unchanged:
            return
        case .failed(let path, let error):
            automation?.emit("plugin.reload-failed", ["path": .string(path), "error": .string(error)])
        case .removed(let path, let components):
            logger.info("plugin \(path) was removed; components [\(components.joined(separator: " "))] are gone")
            automation?.emit("plugin.removed", ["path": .string(path), "components": .array(components.map(JSON.string))])
        case .added(let generation):
            logger.info("plugin \(path) was added: \(generation.plugin.id) [\(generation.plugin.componentNames.joined(separator: " "))]")
            automation?.emit("plugin.added", ["path": .string(path), "id": .string(generation.plugin.id), "components": .array(generation.plugin.componentNames.map(JSON.string))])
        case .reloaded(let generation, let previous, let milliseconds, let residentDelta):
            let reloaded = window.reloadComponents(named: previous.plugin.componentNames.filter { registry.owner(of: $0)?.sourcePath == path })
            logger.info("plugin \(generation.plugin.id) reloaded (generation \(generation.number), \(String(format: "%.1f", milliseconds)) ms, RSS \(residentDelta >= 0 ? "+" : "")\(residentDelta) KiB)")
            automation?.emit("plugin.reloaded", [
                "path": .string(path), "id": .string(generation.plugin.id), "generation": .number(Double(generation.number)),
                "components": .array(generation.plugin.componentNames.map(JSON.string)),
                "reinstantiated": .array(reloaded.map(JSON.string)),
                "milliseconds": .number(milliseconds), "residentKilobytesDelta": .number(Double(residentDelta)),
            ])
        }
        if window.setComponents(registry.registrations) {
            logger.info("the set of components changed to [\(registry.componentNames.joined(separator: " "))]: user agent updated, page reloaded")
            automation?.emit("host.components", ["components": .array(registry.componentNames.map(JSON.string)), "userAgent": .string(window.userAgent)])
        }
    }

    func run() -> Int32 {
        window.present()
        window.load(url: url)
        return loop.run()
    }

    private var recentCrashes: [Date] = []

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

    private func quit(_ code: Int32, _ reason: String) {
        window.tearDown()
        registry.shutdownAll()
        for plugin in isolated { plugin.shutdown() }
        logger.info("exiting (\(code)): \(reason)")
        automation?.emit("host.exit", ["code": .number(Double(code)), "reason": .string(reason)])
        loop.quit(exitCode: code)
    }

    private func perform(_ command: AutomationChannel.Command) {
        switch command {
        case .activate(let id):
            act("activate", id) { (controls) throws(ControlActionError) in try controls.activate(id: id) }
        case .choose(let id, let index):
            act("choose", id) { (controls) throws(ControlActionError) in try controls.choose(id: id, index: index) }
        case .dismiss(let id):
            act("dismiss", id) { (controls) throws(ControlActionError) in try controls.dismiss(id: id) }
        case .confirm(let id):
            act("confirm", id) { (controls) throws(ControlActionError) in try controls.confirm(id: id) }
        case .type(let id, let text):
            act("type", id) { (controls) throws(ControlActionError) in try controls.type(id: id, text: text) }
        case .reload:
            window.reload()
            automation?.emit("command.ok", ["command": "reload"])
        case .navigate(let url):
            window.load(url: url)
            automation?.emit("command.ok", ["command": "navigate", "url": .string(url)])
        case .listControls:
            automation?.emit("controls", ["controls": .array(window.controls.snapshots.map(\.json))])
        case .screenshot(let path):
            if window.saveScreenshot(to: path) {
                automation?.emit("command.ok", ["command": "screenshot", "path": .string(path)])
            } else {
                automation?.emit("command.error", ["command": "screenshot", "path": .string(path), "error": .string("the window could not be rendered to \(path)")])
            }
        case .call(let pluginID, let action, let arguments):
            guard let plugin = registry.plugin(id: pluginID) else {
                automation?.emit("command.error", ["command": "call", "error": .string("no loaded plugin with id \(pluginID)")])
                return
            }
            do {
                let result = try plugin.call(action: action, arguments: arguments)
                automation?.emit("command.ok", ["command": "call", "plugin": .string(pluginID), "action": .string(action), "result": result])
            } catch {
                automation?.emit("command.error", ["command": "call", "plugin": .string(pluginID), "action": .string(action), "error": .string(error.reason)])
            }
        case .quit:
            quit(0, "quit command")
        }
    }

    /// Runs one automation action on a control and reports its outcome.
    private func act(_ command: String, _ id: String, _ body: (WindowControls) throws(ControlActionError) -> Void) {
        do {
            try body(window.controls)
            automation?.emit("command.ok", ["command": .string(command), "control": .string(id)])
        } catch {
            automation?.emit("command.error", ["command": .string(command), "control": .string(id), "error": .string(error.description)])
        }
    }

    private static func trace(_ traffic: BridgeTraffic) {
        let line: String
        switch traffic {
        case .ready: line = "← ready"
        case .received(let message): line = "← \(message.component)/\(message.event) #\(message.id) \(message.jsonData)"
        case .sent(let message): line = "→ \(message.component)/\(message.event) #\(message.id) \(message.jsonData)"
        case .rejected(let raw, let reason): line = "✗ rejected (\(reason)): \(raw)"
        case .dropped(let message, let reason): line = "✗ dropped \(message.component)/\(message.event) #\(message.id): \(reason)"
        case .registered(let names): line = "→ register [\(names.joined(separator: " "))]"
        case .unregistered(let name): line = "→ unregister \(name)"
        }
        FileHandle.standardError.write(Data("[trace] \(line)\n".utf8))
    }
}
