import Foundation
import StradaAutomation
import StradaCore

/// One worker process and its two pipes, served by one I/O thread of its own that waits in poll(2): the main
/// thread never reads, writes or waits on a worker, and no dispatch source watches a pipe (a descriptor closed
/// or reused under a live source crashed the host's dispatch manager thread).
///
/// Lines and payload frames (``WorkerFrame``) to the worker are written at once by the sending thread while the
/// pipe takes them and nothing waits before them (no wake-up of the I/O thread per message); the rest waits in a
/// queue bounded by ``maxQueued`` bytes and is written by the I/O thread as the worker reads. What the worker
/// sends is read as it comes, parsed on the I/O thread, and handed to `sink` in batches. When the
/// receiver falls behind by more than ``maxBacklog`` bytes, reading pauses until it catches up (back-pressure
/// on the worker). Every descriptor is opened close-on-exec, owned by the I/O thread and closed by it only
/// after its last use; the process is reaped by the same thread, so its id is never signalled once reused.
final class WorkerConnection: @unchecked Sendable {  // mutable state under `state`
    /// What the I/O thread reports, in order.
    enum Event: Sendable {
        /// Lines read, parsed (a line that is not a worker message is left out), with their size in bytes:
        /// pass it to ``handled(bytes:)`` once they are dealt with.
        case messages([Incoming], bytes: Int)
        /// The worker's output ended and it was reaped: its `waitpid` status.
        case ended(status: Int32)
    }

    /// A line from the worker, read on the I/O thread: a reply arrives as the bridge message it carries, so the
    /// main thread does not parse 20,000 replies again.
    enum Incoming: Sendable {
        case message(WorkerMessage)
        case reply(instance: Int, Message)
    }

    /// Reads one unit from the worker; `nil` when it is not a worker message (or a reply not a bridge message).
    /// A reply that is the text of a message forwarded to its instance (see ``ForwardedMessages``) is that
    /// message; any other is checked in full here (the worker is not trusted) and kept as written: the page
    /// gets this text.
    func decode(_ unit: WorkerStreamReader.Unit) -> Incoming? {
        switch unit {
        case .frame(let header, let payload):
            guard header.op == .reply else { return nil }
            if let message = payload.withUnsafeBytes({ forwarded.message(instance: header.instance, matching: $0) }) {
                return .reply(instance: header.instance, message)
            }
            guard let message = try? Message(wireText: String(decoding: payload, as: UTF8.self)) else { return nil }
            return .reply(instance: header.instance, message)
        case .line(let line):
            let text = String(decoding: line, as: UTF8.self)
            guard let (op, instance, json) = WorkerMessage.payload(ofLine: text), op == .reply else {
                return WorkerMessage(line: text).map(Incoming.message)
            }
            guard let message = try? Message(wireText: String(json)) else { return nil }
            return .reply(instance: instance, message)
        }
    }

    /// A write to a worker that has died must fail with `EPIPE` (its end is then reported by the read side), not
    /// end the host: `SIGPIPE` is ignored in this process from its first worker on. (The host's libraries used to
    /// set this by chance.) Workers get the default back (``spawn(_:_:_:stdin:stdout:inherited:)``).
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Bytes of lines to the worker held at most; ``send(_:)`` refuses more.
    static let maxQueued = 256 << 20
    /// Bytes read but not yet handled at most, before reading pauses.
    static let maxBacklog = 64 << 20

    let pid: pid_t
    private let state = NSCondition()
    private let sink: @Sendable (WorkerConnection, Event) -> Void
    private var toWorker: Int32
    private let fromWorker: Int32
    private let wakeRead: Int32, wakeWrite: Int32
    /// What waits to be written: lines and frame headers as bytes, payloads as the sender's text (not copied).
    enum Outgoing {
        case bytes([UInt8])
        case text(String)

        var count: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .text(let text): text.utf8.count
            }
        }

        /// Calls `body` with the bytes, contiguous.
        func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
            switch self {
            case .bytes(let bytes): return bytes.withUnsafeBytes(body)
            case .text(let text):
                var text = text
                return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
            }
        }
    }
    private var queue: [Outgoing] = []
    private var queueHead = 0  // bytes of queue[0] already written
    /// Messages lately forwarded, so a reply that is one of them unchanged is not parsed again.
    let forwarded = ForwardedMessages()
    private var queued = 0
    private var backlog = 0
    private var closeInput = false
    private var reaped = false
    private var first: First?
    private var lastProgress = DispatchTime.now().uptimeNanoseconds

    /// Starts `executable` with `arguments` and `environment`, its stdin and stdout connected to this
    /// connection, its stderr the host's, and `inherited` descriptors (close-on-exec here) open in it at the same
    /// numbers: the caller closes them after this returns. `sink` is called on the I/O thread.
    init(
        executable: String, arguments: [String], environment: [String: String], inherited: [Int32] = [],
        sink: @escaping @Sendable (WorkerConnection, Event) -> Void
    ) throws(SpawnError) {
        _ = Self.ignoreBrokenPipes
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1], wake: [Int32] = [-1, -1]
        guard Self.pipe2(&input, O_CLOEXEC) == 0 else { throw SpawnError(code: errno) }
        guard Self.pipe2(&output, O_CLOEXEC) == 0 else {
            let code = errno
            close(input[0]); close(input[1])
            throw SpawnError(code: code)
        }
        guard Self.pipe2(&wake, O_CLOEXEC | O_NONBLOCK) == 0 else {
            let code = errno
            for fd in input + output { close(fd) }
            throw SpawnError(code: code)
        }
        let spawned = Self.spawn(
            executable, arguments, environment, stdin: input[0], stdout: output[1], inherited: inherited)
        close(input[0])
        close(output[1])
        guard case .success(let pid) = spawned else {
            for fd in [input[1], output[0]] + wake { close(fd) }
            if case .failure(let error) = spawned { throw error }
            throw SpawnError(code: EINVAL)
        }
        self.pid = pid
        self.sink = sink
        toWorker = input[1]
        fromWorker = output[0]
        (wakeRead, wakeWrite) = (wake[0], wake[1])
        _ = fcntl(toWorker, F_SETFL, fcntl(toWorker, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fromWorker, F_SETFL, fcntl(fromWorker, F_GETFL) | O_NONBLOCK)
        // The pipes keep the system's default size (64 KiB): 1 MiB pipes (F_SETPIPE_SZ) let a burst of 20,000
        // messages run further ahead of the page, and automation answers came later (IsolationTests' burst).
        let thread = Thread { [self] in run() }
        thread.name = "strada.worker.\(pid)"
        thread.start()
    }

    deinit {
        // Nobody can wake the thread any more (it held `self` until it returned).
        close(wakeRead)
        close(wakeWrite)
    }

    // MARK: Any thread

    /// Sends `line` (a newline is added); `false` when the queue is full or the worker's input is closed.
    @discardableResult
    func send(_ line: String) -> Bool {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        return enqueue([.bytes(bytes)])
    }

    /// Sends `payload` (a message's JSON text) as one frame `op` for `instance`, its bytes as they are; `false`
    /// when the queue is full or the worker's input is closed. `message` is what `payload` was read into: a
    /// reply that is `payload` unchanged is then taken as `message` without parsing it again.
    @discardableResult
    func send(frame op: WorkerMessage.Op, instance: Int, payload: String, message: Message? = nil) -> Bool {
        var header = WorkerFrame(op: op, instance: instance, length: payload.utf8.count).header
        let parts: [Outgoing]
        if payload.utf8.count <= WorkerFrame.smallPayload {
            header.append(contentsOf: payload.utf8)
            parts = [.bytes(header)]
        } else {
            parts = [.bytes(header), .text(payload)]
        }
        guard enqueue(parts) else { return false }
        if let message { forwarded.remember(instance: instance, wire: payload, message: message) }
        return true
    }

    /// Writes `parts` at once, as far as the pipe takes them, when nothing waits before them; queues the rest
    /// for the I/O thread (woken only then). The write happens under the lock, so the descriptor cannot be
    /// closed meanwhile (``closeToWorker()`` closes it under the same lock), and the I/O thread writes only
    /// while the queue is not empty, so the order of the bytes is kept.
    private func enqueue(_ parts: [Outgoing]) -> Bool {
        let size = parts.reduce(0) { $0 + $1.count }
        let (accepted, wakeNeeded) = state.withLock {
            guard !closeInput, toWorker >= 0, queued + size <= Self.maxQueued else { return (false, false) }
            var rest = parts[...]
            var head = 0
            if queue.isEmpty {
                while let part = rest.first {
                    let written = part.withBytes { write(toWorker, $0.baseAddress! + head, $0.count - head) }
                    if written < 0, errno == EINTR { continue }
                    if written < 0 { break }  // full (or broken: the I/O thread meets the error again and closes)
                    lastProgress = DispatchTime.now().uptimeNanoseconds
                    head += written
                    guard head == part.count else { break }
                    rest = rest.dropFirst()
                    head = 0
                }
            }
            guard !rest.isEmpty else { return (true, false) }
            let wasEmpty = queue.isEmpty
            if wasEmpty { queueHead = head }
            queued += rest.reduce(0) { $0 + $1.count } - head
            queue += rest
            return (true, wasEmpty)
        }
        if wakeNeeded { wake() }  // a queue that was not empty is being written already
        return accepted
    }

    /// Whether lines sent now can reach the worker (its input is open: it has not ended, nor been stopped).
    var acceptsInput: Bool { state.withLock { !closeInput && toWorker >= 0 } }

    /// Bytes of earlier ``Event/messages(_:bytes:)`` batches are dealt with: reading may go on.
    func handled(bytes: Int) {
        let resume = state.withLock {
            let paused = backlog > Self.maxBacklog
            backlog -= bytes
            return paused && backlog <= Self.maxBacklog
        }
        if resume { wake() }
    }

    /// Nanoseconds since the worker last read or wrote anything (or since reading paused for the host).
    var idleNanoseconds: UInt64 {
        let last = state.withLock { lastProgress }
        let now = DispatchTime.now().uptimeNanoseconds
        return now > last ? now - last : 0
    }

    /// How a worker began.
    enum First: Sendable {
        /// Its first line.
        case message(WorkerMessage)
        /// It ended (`waitpid` status) before writing a line.
        case ended(status: Int32)
    }

    /// Waits for the worker's first line, or its end, at most until `deadline` (`nil` then). Blocks the
    /// caller: only for start-up, which waits for every plugin's hello at once before the window exists.
    func waitForFirst(until deadline: Date) -> First? {
        state.withLock {
            while first == nil, state.wait(until: deadline) {}
            return first
        }
    }

    /// Closes the worker's input (it exits when it reads the end); ``kill()`` follows if it does not.
    func stop() {
        state.withLock {
            closeInput = true  // the I/O thread drops the queue: it alone takes lines off it
        }
        wake()
    }

    /// SIGKILL, unless the worker was reaped already (its id may belong to another process then).
    func kill() {
        state.withLock {
            if !reaped { _ = Foundation.kill(pid, SIGKILL) }
        }
    }

    private func wake() {
        var one: UInt8 = 1
        _ = write(wakeWrite, &one, 1)  // a full pipe already wakes the thread
    }

    // MARK: The I/O thread

    private func run() {
        var splitter = WorkerStreamReader(limit: WorkerMessage.limits.maxBytes)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var open = true
        while open {
            let (writing, paused, closing) = state.withLock { (!queue.isEmpty, backlog > Self.maxBacklog, closeInput) }
            if closing, toWorker >= 0 { closeToWorker() }
            var fds = [
                pollfd(fd: fromWorker, events: paused ? 0 : Int16(POLLIN), revents: 0),
                pollfd(fd: writing ? toWorker : -1, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 3, paused ? 50 : -1)
            if ready < 0 && errno != EINTR { break }
            if paused { touch() }  // the host is the slow one: the worker is not idle
            if fds[2].revents != 0 { drainWake() }
            if fds[1].revents != 0 { writeQueued() }
            if fds[0].revents != 0 { open = readAvailable(&splitter, &buffer) }
        }
        closeToWorker()
        close(fromWorker)
        let status = reap()
        state.withLock {
            if first == nil { first = .ended(status: status) }
            state.broadcast()
        }
        sink(self, .ended(status: status))
    }

    private func touch() {
        state.withLock { lastProgress = DispatchTime.now().uptimeNanoseconds }
    }

    private func drainWake() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while read(wakeRead, &bytes, bytes.count) > 0 {}
    }

    /// Closes the worker's input, under the lock: ``enqueue(_:)`` writes to it under the same lock.
    private func closeToWorker() {
        state.withLock {
            if toWorker >= 0 { close(toWorker) }
            toWorker = -1
            queue = []
            queued = 0
            queueHead = 0
        }
    }

    /// Writes queued lines until the pipe is full, the queue empty or the input closing. Only this thread takes
    /// lines off the queue (stop() asks; closeToWorker() drops them), so the head it wrote is still there.
    private func writeQueued() {
        while true {
            let next = state.withLock { closeInput ? nil : queue.first.map { ($0, queueHead) } }
            guard let (bytes, head) = next, toWorker >= 0 else { return }
            let written = bytes.withBytes { write(toWorker, $0.baseAddress! + head, $0.count - head) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN { closeToWorker() }  // EPIPE: the worker is gone; its end is reported by read
                return
            }
            state.withLock {
                lastProgress = DispatchTime.now().uptimeNanoseconds
                queued -= written
                queueHead += written
                if queueHead == bytes.count {
                    queue.removeFirst()
                    queueHead = 0
                }
            }
        }
    }

    /// Reads what is there; `false` at the end of the worker's output.
    private func readAvailable(_ splitter: inout WorkerStreamReader, _ buffer: inout [UInt8]) -> Bool {
        var messages: [Incoming] = []
        var bytes = 0
        var open = true
        while bytes < 8 << 20 {
            let count = buffer.withUnsafeMutableBytes { read(fromWorker, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EAGAIN { break }
            if count <= 0 {
                open = false
                break
            }
            bytes += count
            touch()
            do {
                let units = try buffer.withUnsafeBytes { raw throws(WorkerStreamReader.Failure) in
                    try splitter.append(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
                }
                messages += units.compactMap(decode)
            } catch {
                open = false  // not the protocol: treated as the worker's end (it is killed while reaped)
                break
            }
        }
        if !messages.isEmpty {
            state.withLock {
                backlog += bytes
                if first == nil {
                    if case .message(let message) = messages[0] {
                        first = .message(message)
                    } else {
                        first = .message(.pong)
                    }
                    state.broadcast()
                }
            }
            sink(self, .messages(messages, bytes: bytes))
        }
        return open
    }

    /// Waits for the worker to end: 5 s after its output closed, it is killed.
    private func reap() -> Int32 {
        let deadline = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
        var killed = false
        while true {
            let status: Int32? = state.withLock {
                var status: Int32 = 0
                let result = waitpid(pid, &status, WNOHANG)
                guard result == pid || (result < 0 && errno == ECHILD) else { return nil }
                reaped = true
                return result == pid ? status : SIGKILL
            }
            if let status { return status }
            if !killed, DispatchTime.now().uptimeNanoseconds > deadline {
                kill()
                killed = true
            }
            usleep(5_000)
        }
    }
}
