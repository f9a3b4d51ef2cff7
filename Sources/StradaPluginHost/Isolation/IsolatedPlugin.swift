import CStradaPlugin
import Dispatch
import Foundation
package import Logging
import StradaAutomation
package import StradaCore

/// The host side of `--isolate`: one worker process per plugin, the same ABI behind JSON lines carried by a
/// ``WorkerConnection`` (its own I/O thread: the main thread never waits on a worker). A worker that crashes,
/// aborts, hangs (no progress and no answer to a heartbeat within 3 s) or exceeds its memory limit is reported
/// with the plugin's name and restarted; its live components are re-created in the new worker and brought
/// back to the page's state (cached messages replayed — except the last message delivered before the crash,
/// which is the likely culprit: replaying it would crash the new worker too). After 3 crashes in a minute the
/// plugin is disabled and its components ignore messages, until a new build loads. A plugin the host can declare
/// (``DeclaredPlugin``) gets no worker until it is first needed (see ``declared(_:file:launcher:logger:)``).
@MainActor
package final class IsolatedPlugin {
    /// What happened to a worker.
    package enum Event: Sendable {
        case crashed(path: String, id: String, reason: String)
        case restarted(path: String, id: String)
        case disabled(path: String, id: String)
        /// A declared plugin's first worker did not load (said once, when first needed; its line is logged).
        case loadFailed(PluginLoadError)
    }

    /// Seconds a worker has to load its plugin and say hello (start, restart, reload); then it is killed. The same
    /// limit as a probe's (``PluginProbe/timeLimit``).
    package static let helloTimeout = PluginProbe.timeLimit
    /// Seconds without progress and without an answer to a heartbeat after which a worker is killed.
    static let silenceLimit = 3.0

    package let path: String
    package internal(set) var id = ""
    package internal(set) var version = ""
    package internal(set) var componentNames: [String] = []
    /// The ABI its worker said it was built for, once a worker has loaded it.
    package private(set) var abi: String?
    /// Sees crashes, restarts and disabling.
    package var onEvent: (@MainActor (Event) -> Void)?
    /// Sees each message not delivered (the plugin is disabled, or its worker is far behind), with the reason.
    package var onDropped: (@MainActor (Message, String) -> Void)?
    /// Three crashes in a minute (or a failed restart): its components ignore messages until a new build
    /// (``reload(from:completion:)``) or a new host.
    package private(set) var disabled = false
    /// The SHA-256 of the build it serves, when known (`--watch`), and that build's generation.
    package var sha256: String?
    var generation = 1
    /// Before its first worker serves: declared, starting on first use, or broken (see ``Lazy``); `nil` after.
    var lazy: Lazy?

    let logger: Logger
    let memoryLimitMB: Int
    let launcher: PluginProcessLauncher
    /// Where what a worker's hello says goes, as a probe's answer does (``rememberHello(_:components:)``).
    let remember: RememberLoaded?
    /// The worker serving (or, after a crash, starting: messages queue until it has loaded).
    var connection: WorkerConnection?
    /// A worker that has not said hello yet, and what it was started for.
    var pending: (connection: WorkerConnection, purpose: Purpose)?
    var heartbeat: (any DispatchSourceTimer)?
    var lastPong = Date()
    var awaitingPong = false
    private var crashes: [Date] = []
    /// The file the worker loads: a staged copy of `path` under `--watch`, else `path`.
    var loadPath: String
    private var nextInstance = 1
    var components: [Int: IsolatedComponent] = [:]  // live host-side stand-ins (weakly owned by pages)
    private var overflowing = false
    /// Action calls sent to the worker serving, by number, waiting for their result.
    var calls: [Int: @MainActor (JSON?, String?) -> Void] = [:]
    var nextCall = 1
    /// Lines from the worker serving, not handled yet (see ``drain()``).
    /// Each batch's last line carries its size, given back to its connection once handled (back-pressure).
    var inbox: [(message: WorkerConnection.Incoming, batch: (WorkerConnection, Int)?)] = []
    var inboxHead = 0
    var draining = false
    /// Main-thread time spent on the inbox before other work gets a turn.
    static let drainBudget: UInt64 = 8_000_000

    enum Purpose {
        case start(@MainActor (Result<IsolatedPlugin, PluginLoadError>) -> Void)
        case restart
        case reload(file: String, @MainActor ([String]?, PluginLoadError?) -> Void)
        /// A declared plugin's first worker, started at `started` (uptime ns) because `why` needed it.
        case firstUse(started: UInt64, why: String)
    }

    init(
        path: String, file: String?, launcher: PluginProcessLauncher, memoryLimitMB: Int, remember: RememberLoaded?,
        logger: Logger
    ) {
        self.path = path
        self.loadPath = file ?? path
        self.launcher = launcher
        self.remember = remember
        self.logger = logger
        self.memoryLimitMB = memoryLimitMB
    }

    /// Registrations for this plugin's components (stand-ins that talk to the worker).
    package var registrations: [ComponentRegistration] {
        // The manifest is read once per set of registrations (they are made again after every reload); not at all
        // before its first worker serves: it was read when the plugin was declared.
        let grant = PluginGrants.grant(for: id, manifest: declaredManifest ?? PluginManifest(besidePlugin: path))
        return componentNames.map { name in
            ComponentRegistration(name: name, pageCheck: PluginGrants.pageCheck(of: name, plugin: id, grant: grant)) {
                [weak self, id] destination, delegate in
                let component = IsolatedComponent(
                    name: name, pluginID: id, grant: grant,
                    destination: destination, delegate: delegate)
                self?.attach(component)
                return component
            }
        }
    }

    // MARK: Worker process

    /// Starts a worker for `purpose`; it is `pending` until its hello.
    func spawn(_ purpose: Purpose, file: String? = nil) throws(PluginLoadError) {
        if let refusal = PluginSignatures.check(path) { throw refusal }
        var environment = ProcessInfo.processInfo.environment
        // A crash is reported by the host at once, not after symbolication.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        // The worker's plugins see the host's codec settings, as in-process plugins do.
        environment[PluginWorker.codecEnvironmentKey] = Strada.config.codec.json
        var executable = launcher.executable
        var arguments = launcher.workerArguments(file ?? loadPath, memoryLimitMB)
        var inherited: [Int32] = []
        if let sandbox = PluginGrants.sandbox(forPluginAt: path) {
            // In its own PID namespace the worker cannot see the host: bubblewrap ends it with the host.
            let filter: Int32
            (executable, arguments, filter) = try sandboxed(executable, arguments, in: sandbox, file: file ?? loadPath)
            inherited.append(filter)
        } else {
            // The worker ends itself once this process is gone (see PluginWorker.watchHost).
            environment[PluginWorker.hostEnvironmentKey] = String(getpid())
        }
        // Open only across the spawn: bubblewrap has its copy (and reads it once); nothing else gets one.
        defer { for fd in inherited { close(fd) } }
        let connection: WorkerConnection
        do {
            connection = try WorkerConnection(
                executable: executable, arguments: arguments, environment: environment, inherited: inherited
            ) { [weak self] connection, event in
                DispatchQueue.main.async { MainActor.assumeIsolated { self?.receive(event, from: connection) } }
            }
        } catch {
            throw PluginLoadError(
                path: path, reason: "could not start its worker process (\(error))",
                remedy: "check the host installation")
        }
        pending = (connection, purpose)
        if case .reload = purpose {} else { self.connection = connection }
        // A worker that loads nothing within the limit is killed; its end reports it.
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.helloTimeout) { [weak self, weak connection] in
            MainActor.assumeIsolated {
                guard let self, let connection else { return }
                self.hung(connection, after: Self.helloTimeout)
            }
        }
    }

    private func receive(_ event: WorkerConnection.Event, from connection: WorkerConnection) {
        switch event {
        case .messages(let messages, let bytes):
            var rest = messages[...]
            if pending?.connection === connection, let first = rest.popFirst() {
                guard case .message(let message) = first else {
                    connection.kill()
                    return loadFailed(connection, reason: "its worker did not start with a hello")
                }
                helloArrived(message, from: connection)
            }
            guard connection === self.connection, !rest.isEmpty else { return connection.handled(bytes: bytes) }
            inbox += rest.dropLast().map { ($0, nil) }
            inbox.append((rest.last!, (connection, bytes)))
            drain()
        case .ended(let status):
            if pending?.connection === connection {
                endedWhileLoading(connection, status: status)
            } else if connection === self.connection {
                workerEnded(status)
            }
        }
    }

    /// The first line of a pending worker: its hello, or why it did not load.
    func helloArrived(_ first: WorkerMessage, from connection: WorkerConnection) {
        guard let purpose = pending?.purpose, pending?.connection === connection else { return }
        switch first {
        case .hello(let helloID, let helloVersion, let helloABI, let names, let workerProtocol):
            guard workerProtocol == WorkerMessage.protocolVersion else {
                connection.kill()
                let refusal = PluginLoadError.workerOfAnotherBuild(path, launcher.executable, workerProtocol)
                return loadFailed(connection, reason: refusal.reason, remedy: refusal.remedy)
            }
            if case .firstUse = purpose, let problem = lazy?.mismatch(id: helloID, components: names) {
                connection.kill()
                return loadFailed(connection, reason: problem.reason, remedy: problem.remedy)
            }
            pending = nil
            abi = helloABI
            loaded(connection, id: helloID, version: helloVersion, names: names, purpose: purpose)
        case .error(_, let reason, let remedy):
            connection.stop()
            loadFailed(connection, reason: reason, remedy: remedy.isEmpty ? "fix or remove the plugin" : remedy)
        default:
            connection.kill()
            loadFailed(connection, reason: "its worker did not start with a hello")
        }
    }

    /// A pending worker ended with `status` before its hello (whatever it was started for, at start-up too).
    func endedWhileLoading(_ connection: WorkerConnection, status: Int32) {
        // bubblewrap refusing the sandbox or its seccomp filter ends here too, after its own line.
        let sandboxed = PluginGrants.sandbox(forPluginAt: path) != nil
        loadFailed(
            connection, reason: Self.describe(status, loading: true),
            remedy: sandboxed
                ? "fix or remove the plugin; if bwrap's line above refuses the sandbox, it cannot run there"
                : "fix or remove the plugin")
    }

    /// A pending worker said nothing for `seconds`: it is killed.
    func hung(_ connection: WorkerConnection, after seconds: Double) {
        guard pending?.connection === connection else { return }
        connection.kill()
        loadFailed(connection, reason: "hung while loading (no hello from its worker in \(Int(seconds)) s)")
    }

    private func loaded(
        _ connection: WorkerConnection, id helloID: String, version helloVersion: String, names: [String],
        purpose: Purpose
    ) {
        id = helloID
        version = helloVersion
        rememberHello(purpose, components: names)
        lastPong = Date()
        awaitingPong = false
        startHeartbeat()
        switch purpose {
        case .start(let completion):
            componentNames = names
            completion(.success(self))
        case .restart:
            onEvent?(.restarted(path: path, id: id))
        case .reload(let file, let completion):
            // A declared plugin's page may have adopted this worker while it loaded: it has its instances.
            let adopted = self.connection === connection
            if !adopted {
                failCalls("a new build replaced it before it answered")
                self.connection?.stop()
                self.connection = connection
            }
            loadPath = file
            componentNames = names
            disabled = false
            lazy = nil
            crashes = []
            if !adopted { bringBack(excludingLastDelivered: false) }
            completion(components.values.map(\.componentName).uniqued().sorted(), nil)
        case .firstUse(let started, let why):
            lazy = nil
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            let took = String(format: "%.1f", milliseconds)
            logger.info("plugin \(path) loaded on first use (\(why)) in a worker: \(id) in \(took) ms")
        }
    }

    private func loadFailed(_ connection: WorkerConnection, reason: String, remedy: String = "fix or remove the plugin")
    {
        guard let purpose = pending?.purpose, pending?.connection === connection else { return }
        pending = nil
        switch purpose {
        case .start(let completion):
            self.connection = nil
            completion(.failure(PluginLoadError(path: path, reason: reason, remedy: remedy)))
        case .restart:
            self.connection = nil
            disabled = true
            logger.error("plugin \(id) (\(path)) cannot be restarted: \(reason)")
            onEvent?(.disabled(path: path, id: id))
        case .reload(_, let completion):
            completion(nil, PluginLoadError(path: path, reason: reason, remedy: "\(remedy); \(afterFailedReload)"))
            if self.connection === connection { reloadFailedAfterAdoption() }
        case .firstUse:
            self.connection = nil
            firstUseFailed(PluginLoadError(path: path, reason: reason, remedy: remedy))
        }
    }

    private static func describe(_ status: Int32, loading: Bool) -> String {
        let signal = status & 0x7f, code = (status >> 8) & 0xff
        if signal != 0 {
            if loading { return "crashed while loading (signal \(signal))" }
            let killed = signal == SIGKILL ? ": killed after it stopped answering, or out of memory" : ""
            return "crashed (signal \(signal)\(killed))"
        }
        return loading ? "its worker process exited while loading it (status \(code))" : "exited with status \(code)"
    }

    private func workerEnded(_ status: Int32) {
        connection = nil
        failCalls("its worker ended before answering")
        let reason = Self.describe(status, loading: false)
        logger.error("plugin \(id) (\(path)) \(reason); the host keeps running")
        onEvent?(.crashed(path: path, id: id, reason: reason))
        let now = Date()
        crashes = crashes.filter { now.timeIntervalSince($0) < 60 } + [now]
        guard crashes.count < 3 else {
            disabled = true
            logger.error("plugin \(id) crashed 3 times in a minute: disabled until a new build or a new host")
            onEvent?(.disabled(path: path, id: id))
            for component in components.values { component.removeOwnControls() }
            return
        }
        restart()
    }

    /// Starts the build whose worker ended again, its live components brought back in the new worker without the
    /// message the old one was handling last (it may be what ended it).
    func restart() {
        do throws(PluginLoadError) {
            try spawn(.restart)
        } catch {
            disabled = true
            logger.error("plugin \(id) cannot be restarted: \(error.description)")
            onEvent?(.disabled(path: path, id: id))
            return
        }
        // Queued ahead of everything else: the new worker reads them once it has loaded.
        bringBack(excludingLastDelivered: true)
    }

    /// Every live component in the worker now serving: new instance, page lifecycle, cached messages in
    /// arrival order.
    func bringBack(excludingLastDelivered: Bool) {
        for (number, component) in components.sorted(by: { $0.key < $1.key }) {
            component.removeOwnControls()
            createInstance(number, name: component.componentName)
            component.replayState(excludingLastDelivered: excludingLastDelivered)
        }
    }

    // MARK: Instances

    func attach(_ component: IsolatedComponent) {
        wake(for: "component \(component.componentName)")
        let number = nextInstance
        nextInstance += 1
        component.bind(plugin: self, instance: number)
        components[number] = component
        createInstance(number, name: component.componentName)
    }

    private func createInstance(_ number: Int, name: String) {
        send(.create(instance: number, component: name))
    }

    func detach(instance number: Int) {
        components[number] = nil
        send(.destroy(instance: number))
    }

    /// Why its components take no messages now (disabled, or it failed to load when first needed); `nil` when
    /// they do.
    var refusal: String? {
        if disabled { return "plugin \(id) is disabled (it crashed 3 times in a minute)" }
        if case .broken(let error) = lazy { return "plugin \(id) failed to load when first needed: \(error.reason)" }
        return nil
    }

    /// A message for one of this plugin's components arrived while it takes none (``refusal``).
    func drop(_ message: Message) {
        onDropped?(message, refusal ?? "plugin \(id) is not serving")
    }

    /// Queues `message` for the worker; `false` when it was not (no worker, or the worker is far behind).
    @discardableResult
    func send(_ message: WorkerMessage) -> Bool {
        guard !disabled, let connection else { return false }
        return sent(connection.send(message.line))
    }

    /// Sends a message for `instance`, its wire text `wire` as a payload frame (not copied into a JSON line);
    /// `message`, when given, is what `wire` was read into (a reply that is `wire` unchanged is not parsed).
    @discardableResult
    func send(receive instance: Int, wire: String, message: Message?) -> Bool {
        guard !disabled, let connection else { return false }
        return sent(connection.send(frame: .receive, instance: instance, payload: wire, message: message))
    }

    private func sent(_ sent: Bool) -> Bool {
        // A worker whose input is closed has ended (its end is handled and reported on its own): only one whose
        // input is full is behind.
        let behind = !sent && connection?.acceptsInput == true
        if behind, !overflowing {
            logger.error(
                """
                plugin \(id) (\(path)): its worker is \(WorkerConnection.maxQueued >> 20) MiB behind; messages to it \
                are dropped until it catches up
                """)
        }
        overflowing = behind
        return sent
    }

    /// Stops the worker (host exit, or the plugin file was removed).
    package func shutdown() {
        failCalls("the host is stopping it")
        heartbeat?.cancel()
        heartbeat = nil
        connection?.stop()
        connection?.kill()
        pending?.connection.kill()
        connection = nil
        pending = nil
    }
}
