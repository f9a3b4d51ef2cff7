import CStradaPlugin
import Dispatch
import Foundation
package import Logging
import StradaAutomation
package import StradaCore

/// The host side of `--isolate`: one worker process per plugin, the same ABI behind JSON lines. A worker
/// that crashes, aborts, hangs (no answer to a heartbeat within 3 s) or exceeds its memory limit is
/// reported with the plugin's name and restarted; its live components are re-created in the new worker
/// and brought back to the page's state (cached messages replayed — except the last message delivered
/// before the crash, which is the likely culprit: replaying it would crash the new worker too). After 3
/// crashes in a minute the plugin is disabled and its components ignore messages.
@MainActor
package final class IsolatedPlugin {
    /// What happened to a worker.
    package enum Event: Sendable {
        case crashed(path: String, id: String, reason: String)
        case restarted(path: String, id: String)
        case disabled(path: String, id: String)
    }

    package let path: String
    package private(set) var id = ""
    package private(set) var version = ""
    package private(set) var componentNames: [String] = []
    /// Sees crashes, restarts and disabling.
    package var onEvent: (@MainActor (Event) -> Void)?
    /// Sees each message not delivered because the plugin is disabled, with the reason.
    package var onDropped: (@MainActor (Message, String) -> Void)?
    /// Three crashes in a minute (or a failed restart): its components ignore messages until a new build
    /// (``reload(from:)``) or a new host.
    package private(set) var disabled = false

    private let logger: Logger
    private let memoryLimitMB: Int
    private let launcher: PluginProcessLauncher
    private var process: Process?
    private var input: FileHandle?
    private var source: (any DispatchSourceRead)?
    private var heartbeat: (any DispatchSourceTimer)?
    private var buffer = Data()
    private var lastPong = Date()
    private var awaitingPong = false
    private var crashes: [Date] = []
    /// The file the worker loads: `path`, or a staged copy of a rebuilt `path` (``reload(from:)``).
    private var loadPath: String
    private var nextInstance = 1
    private var components: [Int: IsolatedComponent] = [:]  // live host-side stand-ins (weakly owned by pages)

    /// Starts a worker for `path` (loading `file` instead when given: a staged copy of `path`); throws the
    /// plugin's own one-line error if it does not load.
    package init(
        path: String, file: String? = nil, launcher: PluginProcessLauncher, memoryLimitMB: Int = 1024,
        logger: Logger
    ) throws(PluginLoadError) {
        self.path = path
        self.loadPath = file ?? path
        self.launcher = launcher
        self.logger = logger
        self.memoryLimitMB = memoryLimitMB
        try launch()
    }

    /// Registrations for this plugin's components (stand-ins that talk to the worker).
    package var registrations: [ComponentRegistration] {
        componentNames.map { name in
            ComponentRegistration(name: name) { [weak self, id] destination, delegate in
                let component = IsolatedComponent(
                    name: name, pluginID: id, destination: destination, delegate: delegate)
                self?.attach(component)
                return component
            }
        }
    }

    // MARK: Worker process

    private func launch() throws(PluginLoadError) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher.executable)
        process.arguments = launcher.workerArguments(loadPath, memoryLimitMB)
        var environment = ProcessInfo.processInfo.environment
        // A crash is reported by the host at once, not after symbolication.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        // The worker's plugins see the host's codec settings, as in-process plugins do.
        environment[PluginWorker.codecEnvironmentKey] = Strada.config.codec.json
        // The worker ends itself once this process is gone (see PluginWorker.watchHost).
        environment[PluginWorker.hostEnvironmentKey] = String(getpid())
        process.environment = environment
        let toWorker = Pipe(), fromWorker = Pipe()
        process.standardInput = toWorker
        process.standardOutput = fromWorker
        do { try process.run() } catch {
            throw PluginLoadError(
                path: path, reason: "could not start its worker process (\(error))",
                remedy: "check the host installation")
        }
        // The first line is the worker's hello (or its error).
        let reader = fromWorker.fileHandleForReading
        var first = Data()
        let deadline = Date().addingTimeInterval(10)
        while !first.contains(0x0A) && Date() < deadline {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            first.append(chunk)
        }
        let newline = first.firstIndex(of: 0x0A) ?? first.endIndex
        let hello = WorkerMessage(line: String(decoding: first[first.startIndex..<newline], as: UTF8.self))
        guard case .hello(let helloID, let helloVersion, _, let names)? = hello else {
            if case .error(_, let reason)? = hello {
                process.terminate()
                throw PluginLoadError(path: path, reason: reason, remedy: "fix or remove the plugin")
            }
            // No hello: the worker died (its stdout closed first; wait until it is reaped) or hangs.
            let gone = Date().addingTimeInterval(2)
            while process.isRunning && Date() < gone { usleep(2_000) }
            let hung = process.isRunning
            if hung {
                kill(process.processIdentifier, SIGKILL)
                let killed = Date().addingTimeInterval(2)
                while process.isRunning && Date() < killed { usleep(2_000) }
            }
            let reason =
                hung
                ? "hung while loading (no hello from its worker in 10 s)"
                : process.terminationReason == .uncaughtSignal
                    ? "crashed while loading (signal \(process.terminationStatus))"
                    : "its worker process exited while loading it (status \(process.terminationStatus))"
            throw PluginLoadError(path: path, reason: reason, remedy: "fix or remove the plugin")
        }
        if newline < first.endIndex { buffer = Data(first[first.index(after: newline)...]) }
        id = helloID
        version = helloVersion
        componentNames = names
        self.process = process
        input = toWorker.fileHandleForWriting
        let source = DispatchSource.makeReadSource(fileDescriptor: reader.fileDescriptor, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readWorker(reader) } }
        source.resume()
        self.source = source
        startHeartbeat()
    }

    private func startHeartbeat() {
        lastPong = Date()
        awaitingPong = false
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.beat() } }
        timer.resume()
        heartbeat = timer
    }

    private func beat() {
        guard let process, process.isRunning else { return }
        if awaitingPong, Date().timeIntervalSince(lastPong) > 3 {
            logger.error("plugin \(id) (\(path)) stopped answering for 3 s: killing its worker")
            kill(process.processIdentifier, SIGKILL)
            return
        }
        awaitingPong = true
        send(.ping)
    }

    private func readWorker(_ reader: FileHandle) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = read(reader.fileDescriptor, &chunk, chunk.count)
        guard count > 0 else { return workerEnded() }
        buffer.append(contentsOf: chunk[0..<count])
        while let newline = buffer.firstIndex(of: 0x0A) {
            let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
            buffer.removeSubrange(buffer.startIndex...newline)
            guard let message = WorkerMessage(line: line) else { continue }
            handle(message)
        }
    }

    private func handle(_ message: WorkerMessage) {
        switch message {
        case .pong:
            lastPong = Date()
            awaitingPong = false
        case .reply(let instance, let json):
            var bytes = json
            _ = bytes.withUTF8 { components[instance]?.takeReply(UnsafeRawBufferPointer($0)) { json } }
        case .replyToEvent(let instance, let event, let data):
            _ = components[instance]?.replyFromPlugin(toEvent: event, dataJSON: data)
        case .setButton(let instance, let button): _ = components[instance]?.setButton(HeaderButton(json: button))
        case .removeButton(let instance, let id): _ = components[instance]?.removeButton(id: id)
        case .show(let instance, let id, let spec): _ = components[instance]?.showControl(id: id, specJSON: spec)
        case .remove(let instance, let id): _ = components[instance]?.removeControl(id: id)
        default: break  // host → worker operations never come back
        }
    }

    private func workerEnded() {
        source?.cancel()
        source = nil
        heartbeat?.cancel()
        heartbeat = nil
        guard let process else { return }
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL); usleep(50_000) }
        self.process = nil
        let killed = process.terminationStatus == SIGKILL ? ": killed after it stopped answering, or out of memory" : ""
        let reason =
            process.terminationReason == .uncaughtSignal
            ? "crashed (signal \(process.terminationStatus)\(killed))"
            : "exited with status \(process.terminationStatus)"
        logger.error("plugin \(id) (\(path)) \(reason); the host keeps running")
        onEvent?(.crashed(path: path, id: id, reason: reason))
        let now = Date()
        crashes = crashes.filter { now.timeIntervalSince($0) < 60 } + [now]
        guard crashes.count < 3 else {
            disabled = true
            logger.error("plugin \(id) crashed 3 times in a minute: disabled until the host restarts")
            onEvent?(.disabled(path: path, id: id))
            for component in components.values { component.removeOwnControls() }
            return
        }
        do {
            try launch()
        } catch {
            disabled = true
            logger.error("plugin \(id) cannot be restarted: \(error.description)")
            onEvent?(.disabled(path: path, id: id))
            return
        }
        // Bring every live component back: new instance, page lifecycle, cached messages in arrival order.
        for (number, component) in components.sorted(by: { $0.key < $1.key }) {
            component.removeOwnControls()
            createInstance(number, name: component.componentName)
            component.replayState(excludingLastDelivered: true)
        }
        onEvent?(.restarted(path: path, id: id))
    }

    // MARK: Instances

    fileprivate func attach(_ component: IsolatedComponent) {
        let number = nextInstance
        nextInstance += 1
        component.bind(plugin: self, instance: number)
        components[number] = component
        createInstance(number, name: component.componentName)
    }

    private func createInstance(_ number: Int, name: String) {
        send(.create(instance: number, component: name))
    }

    fileprivate func detach(instance number: Int) {
        components[number] = nil
        send(.destroy(instance: number))
    }

    /// A message for one of this plugin's components arrived while the plugin is disabled.
    fileprivate func drop(_ message: Message) {
        onDropped?(message, "plugin \(id) is disabled (it crashed 3 times in a minute)")
    }

    fileprivate func send(_ message: WorkerMessage) {
        guard !disabled, let input, process?.isRunning == true else { return }
        input.write(Data((message.line + "\n").utf8))
    }

    // MARK: Hot reload

    /// `--isolate --watch`: a new build of the plugin, at `file` (a staged copy of ``path``), replaces the
    /// running one. It is probed first; if it does not load, this throws and the old worker keeps serving.
    /// Otherwise the old worker stops, a new one loads `file`, and every live component is brought back as
    /// after a crash (new instance, page lifecycle, every cached message replayed). A disabled plugin is
    /// enabled again. Returns the names of the live components brought back.
    @discardableResult
    package func reload(from file: String) throws(PluginLoadError) -> [String] {
        if let error = PluginProbe.inspect(file: file, launcher: launcher).loadError {
            throw PluginLoadError(
                path: path, reason: error.reason, remedy: error.remedy + "; the previous build keeps serving")
        }
        stopWorker()
        let previous = loadPath
        loadPath = file
        do {
            try launch()
        } catch {
            loadPath = previous
            disabled = true
            onEvent?(.disabled(path: path, id: id))
            throw error
        }
        disabled = false
        crashes = []
        for (number, component) in components.sorted(by: { $0.key < $1.key }) {
            component.removeOwnControls()
            createInstance(number, name: component.componentName)
            component.replayState(excludingLastDelivered: false)
        }
        return components.values.map(\.componentName).uniqued().sorted()
    }

    /// Stops the worker without counting it as a crash.
    private func stopWorker() {
        heartbeat?.cancel()
        heartbeat = nil
        source?.cancel()
        source = nil
        input = nil
        guard let process else { return }
        self.process = nil
        process.terminate()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        buffer = Data()
    }

    /// Stops the worker (host exit).
    package func shutdown() {
        heartbeat?.cancel()
        source?.cancel()
        process?.terminate()
        process = nil
    }
}

/// The host-side stand-in for a component whose plugin runs in a worker process.
@MainActor
final class IsolatedComponent: ForeignComponent {
    private weak var plugin: IsolatedPlugin?
    private var instance = 0

    func bind(plugin: IsolatedPlugin, instance: Int) {
        self.plugin = plugin
        self.instance = instance
    }

    /// The id of the last message handed to the worker (excluded from a replay after a crash).
    private var lastDelivered: String?

    override func deliver(_ message: Message) {
        if let plugin, plugin.disabled { return plugin.drop(message) }
        lastDelivered = message.id
        super.deliver(message)
    }

    override func forward(messageJSON: String) {
        plugin?.send(.receive(instance: instance, messageJSON: messageJSON))
    }

    override func forward(lifecycle event: strada_lifecycle_event) {
        plugin?.send(.lifecycle(instance: instance, event: Int(event)))
    }

    override func forwardActivation(controlID: String) {
        plugin?.send(.activated(instance: instance, control: controlID))
    }

    override func forwardControlEvent(controlID: String, eventJSON: String) {
        plugin?.send(.controlEvent(instance: instance, control: controlID, eventJSON: eventJSON))
    }

    override func destroyInstance() {
        plugin?.detach(instance: instance)
    }

    /// After a worker restart: the page is shown, and every cached message is delivered again.
    func replayState(excludingLastDelivered: Bool) {
        lifecycle(.viewDidLoad)
        lifecycle(.viewWillAppear)
        lifecycle(.viewDidAppear)
        let suspect = excludingLastDelivered ? lastDelivered : nil
        for message in cachedMessages where message.id != suspect { deliver(message) }
    }
}
