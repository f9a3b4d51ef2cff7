import CStradaPlugin
import StradaABI
import Dispatch
import Foundation
public import Logging
import StradaCore

/// The worker side of `--isolate`: runs one plugin in its own process (`strada-host plugin worker <file>`)
/// and speaks JSON lines with the host on stdin/stdout. The plugin sees the same ABI; its host calls are
/// forwarded to the host process. If the plugin crashes, hangs or runs out of memory, only this process dies.
@MainActor
public final class PluginWorker {
    private let descriptor: PluginDescriptor
    private var instances: [Int: (forwarder: WorkerInstance, handle: OpaquePointer, instance: OpaquePointer)] = [:]
    private var input = Data()
    private var source: (any DispatchSourceRead)?

    /// Loads `file` and says hello, or prints the error and exits 1.
    nonisolated public static func run(file: String, logger: Logger) -> Never {
        MainActor.assumeIsolated {
            switch PluginLoader(logger: logger).load(file: file) {
            case .failure(let error):
                WorkerOutput.write(["op": "error", "message": .string(error.description), "reason": .string(error.reason)])
                exit(1)
            case .success(let plugin):
                WorkerOutput.write([
                    "op": "hello", "id": .string(plugin.id), "version": .string(plugin.version), "abi": .string(plugin.abi),
                    "components": .array(plugin.componentNames.map(JSON.string)),
                ])
                let worker = PluginWorker(descriptor: plugin.descriptor)
                worker.start()
                keepAlive = worker
            }
        }
        // Not dispatchMain(): it parks the main thread and drains the main queue elsewhere, and plugins are
        // promised the main thread. The run loop drains the main queue on this thread.
        while true { RunLoop.main.run(mode: .default, before: .distantFuture) }
    }

    private static var keepAlive: PluginWorker?

    init(descriptor: PluginDescriptor) {
        self.descriptor = descriptor
    }

    private func start() {
        let source = DispatchSource.makeReadSource(fileDescriptor: 0, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readInput() } }
        source.resume()
        self.source = source
    }

    private func readInput() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = read(0, &buffer, buffer.count)
        guard count > 0 else { exit(0) }  // the host went away
        input.append(contentsOf: buffer[0..<count])
        while let newline = input.firstIndex(of: 0x0A) {
            let line = String(decoding: input[input.startIndex..<newline], as: UTF8.self)
            input.removeSubrange(input.startIndex...newline)
            if let value = try? JSON(parsing: line, limits: JSONLimits(maxDepth: 1024, maxBytes: 64 << 20)) { handle(value) }
        }
    }

    private func handle(_ command: JSON) {
        let id: Int
        if case .number(let number)? = command["instance"] { id = Int(number) } else { id = -1 }
        switch command["op"]?.stringValue {
        case "ping":
            WorkerOutput.write(["op": "pong"])
        case "create":
            guard let name = command["component"]?.stringValue else { return }
            let forwarder = WorkerInstance(id: id)
            let handle = HostAPI.register(forwarder)
            guard let instance = descriptor.createInstance(named: name, handle: handle) else {
                HostAPI.unregister(handle)
                return
            }
            instances[id] = (forwarder, handle, instance)
        case "receive":
            guard let entry = instances[id], let message = command["message"] else { return }
            descriptor.receive(entry.instance, message.serialized())
        case "lifecycle":
            guard let entry = instances[id], case .number(let event)? = command["event"] else { return }
            descriptor.lifecycle(entry.instance, strada_lifecycle_event(event))
        case "activated":
            guard let entry = instances[id], let control = command["control"]?.stringValue else { return }
            descriptor.controlActivated(entry.instance, control)
        case "controlEvent":
            guard let entry = instances[id], let control = command["control"]?.stringValue, let event = command["event"] else { return }
            descriptor.controlEvent(entry.instance, control, event.serialized())
        case "destroy":
            guard let entry = instances.removeValue(forKey: id) else { return }
            HostAPI.unregister(entry.handle)
            descriptor.destroy(entry.instance)
        default:
            break
        }
    }
}

/// Forwards one instance's host calls to the host process. Calls are asynchronous across the process
/// boundary, so they report STRADA_OK once sent; the host applies them in order.
@MainActor
final class WorkerInstance: PluginHostCalls {
    let id: Int
    init(id: Int) { self.id = id }

    private func send(_ op: String, _ fields: JSONObject) -> strada_status {
        var object = fields
        object["op"] = .string(op)
        object["instance"] = .number(Double(id))
        WorkerOutput.write(object)
        return STRADA_OK
    }

    func replyFromPlugin(json: String) -> strada_status {
        guard let message = try? JSON(parsing: json) else { return STRADA_ERR_INVALID_ARGUMENT }
        return send("reply", ["message": message])
    }

    func replyFromPlugin(toEvent event: String, dataJSON: String) -> strada_status {
        send("replyToEvent", ["event": .string(event), "data": .string(dataJSON)])
    }

    func setButton(_ button: HeaderButton) -> strada_status {
        send("setButton", ["button": .object(button.json)])
    }

    func removeButton(id: String) -> strada_status { send("removeButton", ["id": .string(id)]) }

    func showControl(id: String, specJSON: String) -> strada_status {
        guard let spec = try? JSON(parsing: specJSON) else { return STRADA_ERR_INVALID_ARGUMENT }
        return send("show", ["id": .string(id), "spec": spec])
    }

    func removeControl(id: String) -> strada_status { send("remove", ["id": .string(id)]) }
}

enum WorkerOutput {
    static func write(_ object: JSONObject) {
        let line = JSON.object(object).serialized() + "\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    }
}
