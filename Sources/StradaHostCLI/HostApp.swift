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
    init(url: String, pluginDirectories: [String], automation: [String]?, benchmarkEchoChannel: Bool, trace: Bool, userAgentPrefix: String?, title: String) {
        self.url = url
        let channel = automation.map { AutomationChannel(eventPrefixes: $0, write: { line in print(line); fflush(nil) }) }
        self.automation = channel

        let report = PluginLoader(logger: logger).load(directories: pluginDirectories)
        for error in report.errors {
            channel?.emit("plugin.error", ["path": .string(error.path), "reason": .string(error.reason), "message": .string(error.description)])
        }
        window = BrowserWindow(title: title, components: report.registrations, userAgentPrefix: userAgentPrefix, logger: logger)
        if benchmarkEchoChannel {
            window.installEchoBenchmark { result in channel?.emit("benchmark.roundtrip", ["result": result]) }
        }

        let plugins = report.plugins.map { plugin in
            JSON.object([
                "id": .string(plugin.id), "version": .string(plugin.version), "path": .string(plugin.path),
                "components": .array(plugin.componentNames.map(JSON.string)),
            ])
        }
        logger.info("loaded \(report.plugins.count) plugin(s): components [\(report.componentNames.joined(separator: " "))]")
        channel?.emit("host.ready", [
            "userAgent": .string(window.userAgent), "components": .array(report.componentNames.map(JSON.string)),
            "plugins": .array(plugins),
        ])

        window.bridge.observer = { traffic in
            if trace { Self.trace(traffic) }
            channel?.report(traffic)
        }
        window.controls.observer = { change in channel?.report(change) }
        window.onPageEvent = { [weak self] event in
            channel?.report(event)
            switch event {
            case .closeRequestedByPage: self?.quit(0, "the page called window.close()")
            case .windowClosed: self?.quit(0, "the window was closed")
            case .webProcessTerminated: self?.quit(3, "the web content process died")
            default: break
            }
        }
        channel?.readCommands(fromFD: 0, handler: { [weak self] command in self?.perform(command) }, onEnd: {})
    }

    func run() -> Int32 {
        window.present()
        window.load(url: url)
        return loop.run()
    }

    private func quit(_ code: Int32, _ reason: String) {
        logger.info("exiting (\(code)): \(reason)")
        automation?.emit("host.exit", ["code": .number(Double(code)), "reason": .string(reason)])
        loop.quit(exitCode: code)
    }

    private func perform(_ command: AutomationChannel.Command) {
        switch command {
        case .activate(let id):
            do {
                try window.controls.activate(id: id)
                automation?.emit("command.ok", ["command": "activate", "control": .string(id)])
            } catch {
                automation?.emit("command.error", ["command": "activate", "control": .string(id), "error": .string(error.description)])
            }
        case .reload:
            window.reload()
            automation?.emit("command.ok", ["command": "reload"])
        case .navigate(let url):
            window.load(url: url)
            automation?.emit("command.ok", ["command": "navigate", "url": .string(url)])
        case .listControls:
            automation?.emit("controls", ["controls": .array(window.controls.buttons.map(AutomationChannel.json))])
        case .screenshot(let path):
            if window.saveScreenshot(to: path) {
                automation?.emit("command.ok", ["command": "screenshot", "path": .string(path)])
            } else {
                automation?.emit("command.error", ["command": "screenshot", "path": .string(path), "error": .string("the window could not be rendered to \(path)")])
            }
        case .quit:
            quit(0, "quit command")
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
