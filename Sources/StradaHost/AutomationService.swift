import Logging
import StradaAutomation

/// The automation channel of a session: events out to stdout (`--automation`) and to the clients of a Unix
/// socket (`--automation-socket`), commands in from both, each carried out on the ``AutomationTarget`` and
/// answered with `command.ok` or `command.error` (`AutomationService+Commands.swift`).
@MainActor
final class AutomationService {
    /// Where events go; `nil` when the session has no automation channel (then commands never arrive).
    let channel: AutomationChannel?
    private let socket: AutomationSocket?
    private let readsStandardInput: Bool
    private let logger: Logger
    /// What the commands act on (set by ``start(target:greeting:)``).
    private(set) weak var target: (any AutomationTarget)?

    /// The channel `configuration` asks for, written through `output` (stdout) and the socket it names.
    /// Throws when the socket cannot be opened.
    convenience init(configuration: HostConfiguration, output: HostOutput, logger: Logger) throws(HostError) {
        var socket: AutomationSocket?
        if let path = configuration.automationSocket {
            do { socket = try AutomationSocket(path: path) } catch { throw HostError(description: error.description) }
        }
        let toStdout = configuration.automationEvents != nil
        let channel: AutomationChannel? =
            toStdout || socket != nil
            ? AutomationChannel(
                eventPrefixes: configuration.automationEvents ?? [""],
                writeEvent: { [socket] event, line in
                    if toStdout { output.automation(line) }
                    socket?.send(event, line: line)
                }) : nil
        self.init(channel: channel, socket: socket, readsStandardInput: toStdout, logger: logger)
    }

    /// A service on `channel`: commands from standard input when `readsStandardInput`, and from `socket`'s
    /// clients.
    init(channel: AutomationChannel?, socket: AutomationSocket? = nil, readsStandardInput: Bool, logger: Logger) {
        self.channel = channel
        self.socket = socket
        self.readsStandardInput = readsStandardInput
        self.logger = logger
    }

    /// Starts taking commands for `target`. A socket client connecting late is first greeted with the
    /// start-up events and then `greeting()`'s (the screens shown now), when the channel reports screens.
    func start(target: any AutomationTarget, greeting: @escaping @MainActor () -> [AutomationEvent]) {
        self.target = target
        if readsStandardInput {
            channel?.readCommands(fromFD: 0, handler: { [weak self] command in self?.perform(command) })
        }
        guard let socket else { return }
        let reportsScreens = channel?.wants(.screenPushed) == true
        socket.currentState = { reportsScreens ? greeting() : [] }
        socket.start { [weak self] command in self?.perform(command) }
        logger.info("automation socket: \(socket.path)")
    }

    /// Closes the socket (its file goes); the session is ending.
    func close() { socket?.close() }
}
