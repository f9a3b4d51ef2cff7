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
        let arguments = ["-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", directory]
        return try await start(arguments, timeout: timeout)
    }

    /// Runs the Python server `script` with `arguments` (which should ask for port 0); the script must print
    /// its address, `http://127.0.0.1:<port>/`, on the first line of its standard output.
    public static func running(
        script: String, arguments: [String] = [], timeout: Double = 15
    ) async throws -> LocalHTTPServer {
        try await start([script] + arguments, timeout: timeout)
    }

    /// Python run before the server (`python3 -u -c <guard> <script or -m module> <arguments>`): unblocks the
    /// signals a test runner's thread may have blocked (so SIGTERM stops it at once), and exits when its
    /// parent — the test process, `$LOCAL_HTTP_SERVER_PARENT` — is gone, even if that process was killed and
    /// never called ``stop()``.
    static let guardScript = """
        import os, runpy, signal, sys, threading, time
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        parent = int(os.environ.get("LOCAL_HTTP_SERVER_PARENT", os.getppid()))
        def watch():
            while os.getppid() == parent: time.sleep(0.2)
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
        arguments = sys.argv[1:]
        if arguments[0] == "-m":
            sys.argv = [arguments[1]] + arguments[2:]
            runpy.run_module(arguments[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = arguments
            runpy.run_path(arguments[0], run_name="__main__")
        """

    /// The full `python3` argument list that runs `arguments` (a script or `-m module`, then its own) under
    /// ``guardScript``.
    public static func pythonArguments(_ arguments: [String]) -> [String] {
        ["-u", "-c", guardScript] + arguments
    }

    /// Starts `python3 arguments` and reads the address from the first line it prints.
    private static func start(_ arguments: [String], timeout: Double) async throws -> LocalHTTPServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + pythonArguments(arguments)
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["LOCAL_HTTP_SERVER_PARENT": String(getpid())]) { $1 }
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

    /// The server's process id.
    public var pid: Int32 { process.processIdentifier }

    /// Stops the server (SIGTERM, then SIGKILL after 3 s).
    public func stop() { ProcessRunner.stop(process) }

    deinit { stop() }
}
