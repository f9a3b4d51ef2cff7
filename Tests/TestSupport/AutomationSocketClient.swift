public import Foundation
package import StradaAutomation
package import StradaCore

#if canImport(Glibc)
import Glibc
#endif

/// A client of the host's automation socket (`--automation-socket PATH`): JSON lines in, commands out. Reads
/// block (up to `timeout` seconds a read), so call it off the main actor when the socket is served there.
public final class AutomationSocketClient: @unchecked Sendable {  // used from one task at a time
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Every event read so far, in order, read with the host's own types (as ``HostProcess/events``).
    package private(set) var events: [JSON] = []

    /// Connects to `path`, trying again until the socket is there (at most `timeout` seconds).
    public init(path: String, timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { bytes in
                for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if connected == 0 {
                var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
                self.fd = fd
                return
            }
            close(fd)
            guard Date() < deadline else { throw HostProcess.Timeout(waitingFor: "socket \(path)", seen: []) }
            usleep(20_000)
        }
    }

    deinit { close(fd) }

    /// Sends one command object as a JSON line.
    public func send(_ command: [String: Any]) throws {
        let line = String(decoding: try JSONSerialization.data(withJSONObject: command), as: UTF8.self) + "\n"
        _ = line.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// Reads events until one named `name` (an ``AutomationEvent/Name``) matching `predicate` arrives (every
    /// event read is kept in ``events``), and returns it. Throws `HostProcess.Timeout` when the socket stays
    /// silent or closes.
    @discardableResult
    package func read(until name: AutomationEvent.Name, where predicate: (JSON) -> Bool = { _ in true }) throws -> JSON
    {
        while true {
            guard let event = try nextEvent() else {
                throw HostProcess.Timeout(waitingFor: name.rawValue, seen: events.map(\.description))
            }
            if HostProcess.name(of: event) == name, predicate(event) { return event }
        }
    }

    /// The next event, or `nil` when nothing came within the timeout or the host closed the socket.
    package func nextEvent() throws -> JSON? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                let event = try JSON(parsing: line)
                events.append(event)
                return event
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}
