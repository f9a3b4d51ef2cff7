public import Foundation
import Synchronization

/// A real HTTP server on 127.0.0.1, on a port the system picks, run as a child process for the length of a
/// test: either Python's static file server or a server script that announces its address (the demo app).
/// Stopped by ``stop()`` or when released.
public final class LocalHTTPServer: Sendable {
    /// `http://127.0.0.1:<port>/`.
    public let url: String
    /// The port the server listens on.
    public let port: Int
    private let process: Process

    private init(process: Process, url: String, port: Int) {
        self.process = process
        self.url = url
        self.port = port
    }

    /// Serves the files under `directory` (`python3 -m http.server`).
    public static func serving(directory: String, timeout: Double = 15) async throws -> LocalHTTPServer {
        let arguments = ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", directory]
        return try await start(arguments, timeout: timeout)
    }

    /// Runs the Python server `script` with `arguments` (which should ask for port 0); the script must print
    /// its address, `http://127.0.0.1:<port>/`, on the first line of its standard output.
    public static func running(
        script: String, arguments: [String] = [], timeout: Double = 15
    ) async throws -> LocalHTTPServer {
        try await start(["-u", script] + arguments, timeout: timeout)
    }

    /// Starts `python3 arguments` and reads the address from the first line it prints.
    private static func start(_ arguments: [String], timeout: Double) async throws -> LocalHTTPServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let printed = Mutex<Data>(Data())
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            printed.withLock { $0.append(data) }
        }
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        var line: String?
        while line == nil && process.isRunning && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
            line = printed.withLock { data in
                data.firstIndex(of: 0x0A).map { String(decoding: data[..<$0], as: UTF8.self) }
            }
        }
        output.fileHandleForReading.readabilityHandler = nil
        guard let line, let match = line.firstMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\//), let port = Int(match.1)
        else {
            ProcessRunner.stop(process)
            let command = "python3 " + arguments.joined(separator: " ")
            throw HostProcess.Timeout(waitingFor: "the address line of `\(command)`", seen: [line ?? ""])
        }
        return LocalHTTPServer(process: process, url: String(match.0), port: port)
    }

    /// Stops the server (SIGTERM, then SIGKILL after 3 s).
    public func stop() { ProcessRunner.stop(process) }

    deinit { stop() }
}
