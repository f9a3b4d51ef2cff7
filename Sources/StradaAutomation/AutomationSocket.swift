import Dispatch
import StradaCore

#if canImport(Glibc)
import Glibc
#endif

/// The automation channel on a Unix socket (`strada-host run --automation-socket PATH`): the same JSON lines as
/// `--automation` on stdin/stdout, for tests that drive the page through WebDriver and the native controls here
/// in the same session. Any number of clients may connect, whenever they like. Each is greeted with what it
/// missed — the start-up events (``AutomationReplay``), then the state now (``currentState``: the screens shown),
/// each line marked `"replayed": true` — and then gets every event line written from then on. Greeting and
/// stream cannot overlap or leave a gap: events are written and clients accepted on the main queue, and a client
/// is greeted and joins the stream in one turn of it. Each client's commands are carried out in the order they
/// arrive; a line that is not a command is answered with `command.error` to that client only.
@MainActor
package final class AutomationSocket {
    /// The socket's path.
    package let path: String
    private let listener: Int32
    private var acceptSource: (any DispatchSourceRead)?
    private var clients: [Int32: Client] = [:]
    private var handler: (@MainActor (AutomationCommand) -> Void)?
    /// The start-up events each new client is greeted with first.
    package private(set) var replay = AutomationReplay()
    /// The state now, as events, written to each new client after the start-up events (set by the session:
    /// the screens shown, as `screen.pushed` events).
    package var currentState: (@MainActor () -> [AutomationEvent])?

    /// Why a socket could not be opened: one line saying what and what to do.
    package struct OpenError: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// Listens at `path` (only the user may connect). An existing socket there (a host that died) is replaced;
    /// any other existing file is an error, never removed.
    package init(path: String) throws(OpenError) {
        self.path = path
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw OpenError(description: "--automation-socket \(path): a file that is not a socket is there")
            }
            unlink(path)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else {
            throw OpenError(
                description: "--automation-socket \(path): longer than \(capacity - 1) bytes; use a shorter path")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw OpenError(description: "cannot create a socket: \(String(cString: strerror(errno)))")
        }
        let previousMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(previousMask)
        guard bound == 0, listen(fd, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw OpenError(
                description: "--automation-socket \(path): cannot listen there (\(reason)); pass a writable path")
        }
        listener = fd
    }

    /// Starts accepting clients; `handler` carries out each command read.
    package func start(handler: @escaping @MainActor (AutomationCommand) -> Void) {
        self.handler = handler
        let source = DispatchSource.makeReadSource(fileDescriptor: listener, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.acceptClient() } }
        source.resume()
        acceptSource = source
    }

    /// Writes `event` (as `line`, its ``AutomationEvent/line``) to every client, and keeps it for clients still
    /// to come if it is a start-up event.
    package func send(_ event: AutomationEvent, line: String) {
        replay.record(event)
        for client in clients.values { client.write(line) }
    }

    /// How many clients are connected now.
    package var clientCount: Int { clients.count }

    /// Stops listening, disconnects every client and removes the socket file.
    package func close() {
        acceptSource?.cancel()
        acceptSource = nil
        for client in clients.values { client.close() }
        clients = [:]
        Glibc.close(listener)
        unlink(path)
    }

    private func acceptClient() {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let client = Client(fd: fd)
        // Greeted, then in the stream, in this one turn of the main queue: no event can fall in between.
        for event in replay.events + (currentState?() ?? []) { client.write(event.replayedLine) }
        clients[fd] = client
        client.read(
            onLine: { [weak self, weak client] line in
                guard let self, let client else { return }
                switch Result(catching: { () throws(MalformedMessage) in try AutomationCommand(line: line) }) {
                case .success(let command): self.handler?(command)
                case .failure(let error):
                    let event = AutomationEvent.commandError(
                        command: nil, error: error.reason, details: ["input": .string(line)])
                    client.write(event.line)
                }
            },
            onEnd: { [weak self] in
                guard let self, let client = self.clients.removeValue(forKey: fd) else { return }
                client.close()
            })
    }

    /// One connected client: lines in, lines out (buffered while the client is not reading).
    @MainActor
    private final class Client {
        let fd: Int32
        private var readSource: (any DispatchSourceRead)?
        private var writeSource: (any DispatchSourceWrite)?
        private var input: [UInt8] = []
        private var output: [UInt8] = []
        private var closed = false

        init(fd: Int32) { self.fd = fd }

        func read(onLine: @escaping @MainActor (String) -> Void, onEnd: @escaping @MainActor () -> Void) {
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
            source.setEventHandler { [weak self] in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    var chunk = [UInt8](repeating: 0, count: 65536)
                    let count = Glibc.read(self.fd, &chunk, chunk.count)
                    if count < 0, errno == EAGAIN || errno == EINTR { return }
                    guard count > 0 else { return onEnd() }
                    self.input.append(contentsOf: chunk[0..<count])
                    while let newline = self.input.firstIndex(of: 0x0A) {
                        let line = String(decoding: self.input[..<newline], as: UTF8.self)
                        self.input.removeSubrange(...newline)
                        if !line.isEmpty { onLine(line) }
                    }
                }
            }
            source.resume()
            readSource = source
        }

        func write(_ line: String) {
            guard !closed else { return }
            output.append(contentsOf: line.utf8)
            output.append(0x0A)
            flush()
        }

        private func flush() {
            while !output.isEmpty {
                let written = output.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if written > 0 {
                    output.removeFirst(written)
                } else if written < 0, errno == EINTR {
                    continue
                } else if written < 0, errno == EAGAIN {
                    waitUntilWritable()
                    return
                } else {
                    output = []  // the client is gone; its read source sees the end
                    return
                }
            }
            writeSource?.cancel()
            writeSource = nil
        }

        private func waitUntilWritable() {
            guard writeSource == nil else { return }
            let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: .main)
            source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.flush() } }
            source.resume()
            writeSource = source
        }

        func close() {
            guard !closed else { return }
            closed = true
            writeSource?.cancel()
            writeSource = nil
            guard let readSource else {
                _ = Glibc.close(fd)
                return
            }
            let fd = fd
            readSource.setCancelHandler { _ = Glibc.close(fd) }
            readSource.cancel()
            self.readSource = nil
        }
    }
}
