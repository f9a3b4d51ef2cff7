import CStradaPlugin
import Dispatch
import Foundation
package import Logging
import StradaABI
import StradaAutomation
import StradaCore

#if canImport(Glibc)
import Glibc
#endif

/// The worker side of `--isolate`: runs one plugin in its own process (`strada-host plugin worker <file>`)
/// and speaks JSON lines and payload frames (``WorkerFrame``) with the host on stdin/stdout. The plugin sees the
/// same ABI; its host calls are forwarded to the host process. If the plugin crashes, hangs or runs out of
/// memory, only this process dies.
@MainActor
package final class PluginWorker {
    private let plugin: LoadedPlugin
    private var descriptor: PluginDescriptor { plugin.descriptor }
    private var instances: [Int: (forwarder: WorkerInstance, handle: OpaquePointer, instance: OpaquePointer)] = [:]
    private var input = WorkerStreamReader(limit: WorkerMessage.limits.maxBytes)
    /// What each read lands in, allocated once (not 1 MiB cleared again for every read).
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)

    /// Loads `file` and says hello, or prints the error and exits 1.
    /// The environment variable the host passes its codec settings to the worker in (JSON).
    nonisolated static let codecEnvironmentKey = "STRADA_WORKER_CODEC"
    /// The environment variable holding the host's process id.
    nonisolated static let hostEnvironmentKey = "STRADA_WORKER_HOST"

    nonisolated package static func run(file: String, logger: Logger) -> Never {
        dieWithHost()
        WorkerOutput.takeChannel()
        if let codec = ProcessInfo.processInfo.environment[codecEnvironmentKey] {
            Strada.config.codec = CodecSettings(json: codec)
        }
        MainActor.assumeIsolated {
            switch PluginLoader(logger: logger).load(file: file) {
            case .failure(let error):
                WorkerOutput.write(.error(message: error.description, reason: error.reason, remedy: error.remedy))
                exit(1)
            case .success(let plugin):
                WorkerOutput.write(
                    .hello(
                        id: plugin.id, version: plugin.version, abi: plugin.abi, components: plugin.componentNames))
                let worker = PluginWorker(plugin: plugin, logger: logger)
                worker.watchHost()
                keepAlive = worker
            }
        }
        // Not dispatchMain(): it parks the main thread and drains the main queue elsewhere, and plugins are
        // promised the main thread.
        WorkerMainLoop.run(input: 0) { keepAlive?.readInput() }
    }

    private static var keepAlive: PluginWorker?

    /// Asks the kernel to kill this process when the host's thread that started it ends (PR_SET_PDEATHSIG): no
    /// worker outlives its host, even a host killed with SIGKILL while the plugin's entry point hangs (when
    /// nothing in the worker can look). The host starts workers from its main thread. `prctl` is variadic, which
    /// Swift cannot call: it is looked up and called with its five integer arguments, as the kernel takes them.
    nonisolated private static func dieWithHost() {
        guard let value = ProcessInfo.processInfo.environment[hostEnvironmentKey], let host = pid_t(value),
            let symbol = dlsym(nil, "prctl")  // RTLD_DEFAULT
        else { return }
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        let prctl = unsafeBitCast(symbol, to: Prctl.self)
        let setParentDeathSignal: Int32 = 1  // PR_SET_PDEATHSIG, <linux/prctl.h>
        _ = prctl(setParentDeathSignal, UInt(SIGKILL), 0, 0, 0)
        if getppid() != host { exit(0) }  // the host ended before the request was made
    }

    init(plugin: LoadedPlugin, logger: Logger) {
        self.plugin = plugin
        self.logger = logger
    }

    /// Where the plugin's refused calls are said (the worker's stderr, which is the host's).
    private let logger: Logger

    /// Ends the worker when the host is gone. Its stdin reaching end of file says so only when no other
    /// process holds the pipe's write end, and a child the host started later may have inherited it: seen
    /// after test runs, workers orphaned for hours. Checked once a second: the parent is no longer the host.
    private func watchHost() {
        guard let value = ProcessInfo.processInfo.environment[Self.hostEnvironmentKey], let host = pid_t(value)
        else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now(), repeating: 1)
        timer.setEventHandler { if getppid() != host { exit(0) } }
        timer.resume()
        hostWatch = timer
    }

    private var hostWatch: (any DispatchSourceTimer)?

    fileprivate func readInput() {
        let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
        guard count > 0 else { exit(0) }  // the host went away
        let units: [WorkerStreamReader.Unit]
        do {
            units = try buffer.withUnsafeBytes { raw throws(WorkerStreamReader.Failure) in
                try input.append(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
            }
        } catch {
            exit(1)  // not the host's protocol
        }
        for unit in units {
            switch unit {
            case .frame(let header, let payload):
                guard header.op == .receive else { continue }
                handle(.receive(instance: header.instance, messageJSON: String(decoding: payload, as: UTF8.self)))
            case .line(let bytes):
                let line = String(decoding: bytes, as: UTF8.self)
                if let message = WorkerMessage.receive(line: line) ?? WorkerMessage(line: line) { handle(message) }
            }
        }
    }

    private func handle(_ message: WorkerMessage) {
        switch message {
        case .ping:
            WorkerOutput.write(.pong)
        case .create(let id, let name):
            let forwarder = WorkerInstance(id: id, pluginID: plugin.id, logger: logger)
            let handle = HostAPI.register(forwarder)
            guard let instance = descriptor.createInstance(named: name, handle: handle) else {
                HostAPI.unregister(handle)
                return
            }
            instances[id] = (forwarder, handle, instance)
        case .receive(let id, let json):
            guard let entry = instances[id] else { return }
            entry.forwarder.lastReceived = json
            descriptor.receive(entry.instance, json)
        case .lifecycle(let id, let event):
            guard let entry = instances[id] else { return }
            descriptor.lifecycle(entry.instance, strada_lifecycle_event(event))
        case .activated(let id, let control):
            guard let entry = instances[id] else { return }
            descriptor.controlActivated(entry.instance, control)
        case .controlEvent(let id, let control, let event):
            guard let entry = instances[id] else { return }
            descriptor.controlEvent(entry.instance, control, event)
        case .call(let call, let action, let arguments):
            do {
                let result = try plugin.call(action: action, arguments: arguments)
                WorkerOutput.write(.callResult(call: call, result: result, error: nil))
            } catch {
                WorkerOutput.write(.callResult(call: call, result: nil, error: error.reason))
            }
        case .destroy(let id):
            guard let entry = instances.removeValue(forKey: id) else { return }
            HostAPI.unregister(entry.handle)
            descriptor.destroy(entry.instance)
        default:
            break  // worker → host operations never arrive here
        }
    }
}

/// Forwards one instance's host calls to the host process. Calls are asynchronous across the process
/// boundary, so they report STRADA_OK once sent; the host applies them in order. What can be checked here is
/// checked as in the host's process (``PluginCallCheck``): the same `STRADA_ERR_INVALID_ARGUMENT`, the same line.
@MainActor
final class WorkerInstance: PluginHostCalls {
    let id: Int
    /// The plugin's id, for the lines refused calls write.
    let pluginID: String
    let logger: Logger
    /// The text of the last message the host sent this instance: a reply that is this text exactly needs no
    /// checking here (the host read it into a message before sending it).
    var lastReceived: String?
    init(id: Int, pluginID: String, logger: Logger) {
        self.id = id
        self.pluginID = pluginID
        self.logger = logger
    }

    /// `STRADA_ERR_INVALID_ARGUMENT`, with the refusal's line.
    private func refuse(_ refusal: PluginCallCheck.Refusal) -> strada_status {
        logger.warning("\(refusal.line)")
        return STRADA_ERR_INVALID_ARGUMENT
    }

    private func send(_ message: WorkerMessage) -> strada_status {
        WorkerOutput.write(message)
        return STRADA_OK
    }

    func replyFromPluginUnchanged(_ json: UnsafeRawBufferPointer) -> strada_status? {
        guard var last = lastReceived, last.utf8.count == json.count, let bytes = json.baseAddress else { return nil }
        let same = last.withUTF8 { $0.isEmpty || memcmp($0.baseAddress!, bytes, $0.count) == 0 }
        guard same else { return nil }
        WorkerOutput.write(reply: id, json: last)
        return STRADA_OK
    }

    /// A reply that is not the message received: checked as the host checks a plugin's reply in process (a
    /// bridge message; the host checks it again, as it trusts no worker), then sent as a frame.
    func replyFromPlugin(json: String) -> strada_status {
        do {
            _ = try PluginCallCheck.reply(json, plugin: pluginID)
        } catch {
            return refuse(error)
        }
        WorkerOutput.write(reply: id, json: json)
        return STRADA_OK
    }

    func replyFromPlugin(toEvent event: String, dataJSON: String) -> strada_status {
        do {
            try PluginCallCheck.replyData(dataJSON, event: event, plugin: pluginID)
        } catch {
            return refuse(error)
        }
        return send(.replyToEvent(instance: id, event: event, dataJSON: dataJSON))
    }

    func setButton(_ button: HeaderButton) -> strada_status {
        send(.setButton(instance: id, button: .object(button.json)))
    }

    func removeButton(id: String) -> strada_status { send(.removeButton(instance: self.id, id: id)) }

    func showControl(id: String, specJSON: String) -> strada_status {
        do {
            _ = try PluginCallCheck.control(id: id, specJSON: specJSON, plugin: pluginID)
        } catch {
            return refuse(error)
        }
        return send(.show(instance: self.id, id: id, specJSON: specJSON))
    }

    func removeControl(id: String) -> strada_status { send(.remove(instance: self.id, id: id)) }
}

/// The worker's channel to the host (the stdout it was started with), the host's only input from it: whole lines
/// and frames, written in full.
enum WorkerOutput {
    /// The pipe to the host, moved off descriptor 1 before the plugin loads: what a plugin prints goes to stderr
    /// and cannot break a frame or a line (a `#` at the start of a line would read as a frame's header).
    private static let channel: Int32 = {
        let channel = fcntl(1, 1030, 3)  // F_DUPFD_CLOEXEC
        guard channel >= 0 else { return 1 }
        _ = dup2(2, 1)
        return channel
    }()

    /// Moves the channel off stdout now, before any plugin code runs.
    static func takeChannel() { _ = channel }

    static func write(_ message: WorkerMessage) {
        var line = message.line
        line.append("\n")
        writeAll(line)
    }

    /// A reply for `instance` as a frame: `json` is written from its own storage, not copied into a line.
    static func write(reply instance: Int, json: String) {
        let frame = WorkerFrame(op: .reply, instance: instance, length: json.utf8.count)
        let header = String(decoding: frame.header, as: UTF8.self)
        // A small reply goes in one write (one wake-up of the host's reader); a large one is not copied.
        if json.utf8.count <= WorkerFrame.smallPayload {
            writeAll(header + json)
        } else {
            writeAll(header)
            writeAll(json)
        }
    }

    private static func writeAll(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(channel, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { exit(0) }  // the host went away
                offset += written
            }
        }
    }
}
