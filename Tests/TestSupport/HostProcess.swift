public import Foundation
package import StradaAutomation
package import StradaCore
import Synchronization
import Testing

/// The real `strada-host` binary as a child process, driven through its automation channel
/// (JSON-line events on stdout, JSON-line commands on stdin).
public final class HostProcess: Sendable {
    /// Waiting for an event (or an exit) took too long; says what was awaited and every event seen.
    public struct Timeout: Error, CustomStringConvertible {
        public let waitingFor: String
        public let seen: [String]
        public init(waitingFor: String, seen: [String]) {
            self.waitingFor = waitingFor
            self.seen = seen
        }
        public var description: String {
            "timed out waiting for \(waitingFor); events so far:\n" + seen.joined(separator: "\n")
        }
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private final class Buffer: Sendable {
        /// `stderrEnded`: standard error reached its end (every process holding it is gone); `reported`: how many
        /// lines of it were checked for GLib criticals (``checkStandardError()``).
        typealias State = (partial: Data, lines: [String], stderr: Data, stderrEnded: Bool, reported: Int)
        let state = Mutex<State>((Data(), [], Data(), false, 0))
        func withLock<R>(_ body: (inout sending State) -> R) -> R { state.withLock { body(&$0) } }
    }
    private let buffer = Buffer()

    /// Starts `strada-host run <page> --automation <arguments>`. Wraps it in `xvfb-run -a` when there is no display
    /// (neither in this process's environment nor a `DISPLAY` in `environment`).
    /// `ephemeral` (the default) adds `--ephemeral`: no website data is kept, so runs never share cookies.
    /// `executable`: another `strada-host` than the one just built (an installed package's).
    public convenience init(
        page: String, arguments: [String], environment: [String: String] = [:], ephemeral: Bool = true,
        executable: String? = nil
    ) throws {
        try self.init(
            run: [page, "--automation"] + (ephemeral ? ["--ephemeral"] : []) + arguments, environment: environment,
            executable: executable)
    }

    /// Starts `strada-host run --app <file> --automation --ephemeral <arguments>` (an app definition).
    public convenience init(app file: String, arguments: [String], environment: [String: String] = [:]) throws {
        try self.init(run: ["--app", file, "--automation", "--ephemeral"] + arguments, environment: environment)
    }

    private init(run arguments: [String], environment: [String: String], executable: String? = nil) throws {
        let host = executable ?? BuiltProducts.path("strada-host")
        let command = [host, "run"] + arguments
        let current = ProcessInfo.processInfo.environment
        if current["DISPLAY"]?.isEmpty == false || current["WAYLAND_DISPLAY"] != nil || environment["DISPLAY"] != nil {
            process.executableURL = URL(fileURLWithPath: host)
            process.arguments = Array(command.dropFirst())
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/xvfb-run")
            process.arguments = ["-a"] + command
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [buffer] handle in
            let data = handle.availableData
            // At the end, stop watching: a handler left set keeps its dispatch source, and with it the pipe's
            // descriptor, for the rest of the test run (see deinit).
            if data.isEmpty { handle.readabilityHandler = nil }
            buffer.withLock { state in
                state.partial.append(data)
                while let newline = state.partial.firstIndex(of: 0x0A) {
                    let line = state.partial[state.partial.startIndex..<newline]
                    state.lines.append(String(decoding: line, as: UTF8.self))
                    state.partial.removeSubrange(state.partial.startIndex...newline)
                }
            }
        }
        errors.fileHandleForReading.readabilityHandler = { [buffer] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            buffer.withLock { state in
                state.stderr.append(data)
                if data.isEmpty { state.stderrEnded = true }
            }
        }
        try process.run()
    }

    /// The host's process id.
    public var pid: Int32 { process.processIdentifier }

    /// Process ids of the host's descendants whose command name starts with `prefix` (e.g. WebKit's web process).
    public func descendants(named prefix: String) -> [Int32] {
        var children: [Int32: [Int32]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.range(of: ")", options: .backwards)
            else { continue }
            let fields = stat[close.upperBound...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { children[parent, default: []].append(child) }
        }
        var found: [Int32] = [], stack = [pid]
        while let current = stack.popLast() {
            for child in children[current] ?? [] {
                stack.append(child)
                let name = (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? ""
                if name.hasPrefix(prefix) { found.append(child) }
            }
        }
        return found
    }

    /// Process ids of the host's plugin helpers (`strada-plugin-worker`, whose command name the kernel cuts to 15
    /// characters): its isolation workers and its probe children.
    public func pluginHelpers() -> [Int32] { descendants(named: "strada-plugin-w") }

    /// Waits up to `seconds` for every process in `pids` to end (a zombie has ended), then SIGKILLs any left and
    /// returns those: the processes that outlived the wait.
    public static func survivors(of pids: [Int32], within seconds: Double) async throws -> [Int32] {
        func alive(_ pid: Int32) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.range(of: ")", options: .backwards)
            else { return false }
            return !stat[close.upperBound...].hasPrefix(" Z")
        }
        let deadline = Date().addingTimeInterval(seconds)
        while pids.contains(where: alive) && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let left = pids.filter(alive)
        for pid in left { kill(pid, SIGKILL) }
        return left
    }

    /// Every event line so far.
    public var lines: [String] { buffer.withLock { $0.lines } }
    /// Everything the host wrote to stderr so far.
    public var standardError: String { buffer.withLock { String(decoding: $0.stderr, as: UTF8.self) } }

    private let parsed = ParsedLines<JSON>()

    /// The events parsed so far from a growing list of lines, and how many lines that took.
    private final class ParsedLines<Event>: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [Event] = []
        private var linesRead = 0

        /// Parses the lines not read yet (`parse` returns `nil` for a line that is no event) and returns all.
        func update(from lines: [String], parse: (String) -> Event?) -> [Event] {
            lock.lock()
            defer { lock.unlock() }
            if lines.count > linesRead {
                events += lines[linesRead...].compactMap(parse)
                linesRead = lines.count
            }
            return events
        }
    }

    /// Every event so far, read with the host's own types: its name is an ``AutomationEvent/Name`` (the names
    /// StradaAutomation writes), the event object StradaCore's ``JSON`` (`event["control"]?["title"] == "Save"`).
    /// Each line is parsed once (waits poll this every 20 ms, and a page sending megabyte messages makes megabyte
    /// events: parsing them all again at each poll starved the host). A mark is a count of these.
    ///
    /// Events are read without the bridge's message limits (16 MiB, depth 512): the host writes what a page sent.
    /// A line that still is not JSON is kept as an event named ``unreadableLine`` with the parser's error and the
    /// line's start, so it shows in a failure's dump of the events instead of vanishing.
    package var events: [JSON] {
        parsed.update(from: lines) { line in
            do {
                return try JSON(parsing: line, limits: Self.eventLimits)
            } catch {
                return .object([
                    "event": .string(Self.unreadableLine), "error": .string("\(error)"),
                    "bytes": .number(Double(line.utf8.count)), "start": .string(String(line.prefix(200))),
                ])
            }
        }
    }

    /// The name of the stand-in event for a line of the host's output that is not JSON (see ``events``).
    package static let unreadableLine = "test.unreadable-line"
    private static let eventLimits = JSONLimits(maxDepth: 100_000, maxBytes: Int.max)

    /// The name of an event read as ``JSON``.
    package static func name(of event: JSON) -> AutomationEvent.Name? {
        event["event"]?.stringValue.flatMap(AutomationEvent.Name.init(rawValue:))
    }

    /// The events so far named `name`.
    package func events(named name: AutomationEvent.Name) -> [JSON] {
        events.filter { Self.name(of: $0) == name }
    }

    /// Waits for the first event `name` satisfying `where`, among the events from index `mark` on (the number of
    /// events seen before an action: what came after it); the event as ``JSON``.
    @discardableResult
    package func waitFor(
        _ name: AutomationEvent.Name, after mark: Int = 0, occurrence: Int = 1, timeout: Double = 30,
        where predicate: (JSON) -> Bool = { _ in true }
    ) async throws -> JSON {
        try await wait(for: name.rawValue, after: mark, timeout: timeout) {
            Self.match(events, after: mark, occurrence: occurrence) { Self.name(of: $0) == name && predicate($0) }
        }
    }

    /// The `occurrence`th of `events` from index `mark` on that `matches`.
    private static func match<Event>(
        _ events: [Event], after mark: Int, occurrence: Int, _ matches: (Event) -> Bool
    ) -> Event? {
        guard events.count > mark else { return nil }
        var seen = 0
        for event in events[mark...] where matches(event) {
            seen += 1
            if seen == occurrence { return event }
        }
        return nil
    }

    /// Polls `match` until it finds the event, the host exits, or `timeout` seconds pass.
    private func wait<Event>(
        for name: String, after mark: Int, timeout: Double, _ match: () -> Event?
    ) async throws -> Event {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let found = match() { return found }
            if !process.isRunning {
                try await Task.sleep(for: .milliseconds(100))
                if let found = match() { return found }
                let exit = "the host exited with \(process.terminationStatus); stderr: \(standardError)"
                throw Timeout(waitingFor: "\(name) after event \(mark) (\(exit))", seen: lines)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Timeout(waitingFor: "\(name) after event \(mark)", seen: lines)
    }

    /// DISPLAY and XAUTHORITY of the host's X display (it may run under its own `xvfb-run`).
    public func display() throws -> [String: String] {
        let environment = ProcessInfo.processInfo.environment
        if let display = environment["DISPLAY"], !display.isEmpty { return ["DISPLAY": display] }
        guard let pid = descendants(named: "strada-host").first,
            let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
        else { throw Timeout(waitingFor: "the host's display", seen: lines) }
        var found: [String: String] = [:]
        for entry in data.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            for key in ["DISPLAY", "XAUTHORITY"] where text.hasPrefix(key + "=") {
                found[key] = String(text.dropFirst(key.count + 1))
            }
        }
        return found
    }

    /// Real X input (xdotool's XTEST) to the host's window whose title contains `title`: the window is found
    /// (waiting until X has its title), focused, then `input` runs with `WINDOW` standing for its id, e.g.
    /// `["key", "--window", "WINDOW", "F5"]` or `["mousemove", "400", "300", "click", "8"]`.
    public func xInput(_ input: [String], toWindowTitled title: String) async throws {
        let display = try display()
        let found = try await ProcessRunner.check(
            "/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", title], environment: display,
            timeout: 20)
        let id = found.split(separator: "\n").last.map(String.init) ?? ""
        try await ProcessRunner.check("/usr/bin/xdotool", ["windowfocus", "--sync", id], environment: display)
        try await ProcessRunner.check(
            "/usr/bin/xdotool", input.map { $0 == "WINDOW" ? id : $0 }, environment: display)
    }

    /// Presses `keys` (xdotool's names: "F5", "Return", "alt+Left") in the host's window titled `title`: the
    /// window is focused and the keys go through XTEST, as a keyboard's would (not to a window id, which may be
    /// gone by the key's release when the key closes it).
    public func press(_ keys: String, inWindowTitled title: String) async throws {
        try await xInput(["key", keys], toWindowTitled: title)
    }

    /// Sends one command object as a JSON line.
    public func send(_ command: [String: String]) throws {
        let data = try JSONSerialization.data(withJSONObject: command, options: [.sortedKeys])
        input.fileHandleForWriting.write(data + Data("\n".utf8))
    }

    /// Sends one raw line (for commands with non-string fields).
    public func sendLine(_ line: String) throws {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits for the process to exit and returns its status; kills it after `timeout`.
    public func waitForExit(timeout: Double = 30) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            throw Timeout(waitingFor: "exit", seen: lines)
        }
        checkStandardError()
        return process.terminationStatus
    }

    /// Records an issue in the running test for each line of the host's standard error (its web process's
    /// included) that ``GLibCriticals`` reports and no earlier check did, quoting the line, once standard error
    /// has ended (waiting up to 2 s for it). Runs when the host stops (``waitForExit(timeout:)``) and when the
    /// test lets go of it (which ends it): every host a test starts is checked.
    private func checkStandardError() {
        let deadline = Date().addingTimeInterval(2)
        while !buffer.withLock({ $0.stderrEnded }) && Date() < deadline { usleep(10_000) }
        let found = buffer.withLock { state -> [String] in
            let lines = String(decoding: state.stderr, as: UTF8.self).split(whereSeparator: \.isNewline)
            defer { state.reported = lines.count }
            return GLibCriticals.reported(in: lines.dropFirst(state.reported).joined(separator: "\n"))
        }
        for line in found {
            Issue.record(
                """
                strada-host printed a GLib critical or warning (a bug, often a freed widget: \
                docs/engine.md#glib-criticals-under-test):
                \(line)
                """)
        }
    }

    deinit {
        // SIGKILL: a host started from a test-runner thread may have inherited a blocked SIGTERM. Its
        // descendants first (under `xvfb-run` the host itself is one, with Xvfb), so none outlives the test.
        if process.isRunning {
            for child in descendants(named: "") { kill(child, SIGKILL) }
            kill(process.processIdentifier, SIGKILL)
        }
        checkStandardError()
        // Every descriptor of the three pipes goes with the host. Before, a test run kept ~3 per host started
        // (600+ hosts: well over 1,000 open pipes by the end), and Foundation's Process.run() on Linux reads
        // past glibc's readdir buffer while listing /proc/self/fd once that buffer fills: the test process
        // crashed at random in Process.run (memcpy; swift-corelibs-foundation #5472, not in Swift 6.3.1).
        for handle in [output.fileHandleForReading, errors.fileHandleForReading] { handle.readabilityHandler = nil }
        for handle in [
            input.fileHandleForWriting, input.fileHandleForReading, output.fileHandleForReading,
            output.fileHandleForWriting, errors.fileHandleForReading, errors.fileHandleForWriting,
        ] {
            try? handle.close()
        }
    }
}
