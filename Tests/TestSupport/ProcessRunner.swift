public import Foundation
import Synchronization

/// Runs a command to completion as a child process and collects what it printed: the one way tests run
/// tools (`cc`, `make`, `swift build`, the `strada-host` command line).
///
/// A `tool` without a slash is looked up on `PATH`; standard input is `/dev/null` unless `input` is given.
public enum ProcessRunner {
    /// What a finished command printed, and how it ended.
    public struct Output: Sendable {
        /// The exit status (or the signal number, when it was killed).
        public let status: Int32
        /// Whether it exited by itself rather than by a signal.
        public let exited: Bool
        /// Standard output; with ``Streams/merged``, both streams in the order they were written.
        public let stdout: String
        /// Standard error; empty with ``Streams/merged``.
        public let stderr: String
        /// Whether it exited with status 0.
        public var succeeded: Bool { exited && status == 0 }
    }

    /// How standard output and standard error are collected.
    public enum Streams: Sendable {
        /// Apart, as ``Output/stdout`` and ``Output/stderr``.
        case separate
        /// Through one pipe, interleaved as written, all in ``Output/stdout``.
        case merged
    }

    /// A command failed or outlived its time; carries everything it printed.
    public struct Failed: Error, CustomStringConvertible {
        public let command: String
        public let output: Output?
        public let reason: String
        public var description: String {
            "`\(command)` \(reason):\n" + (output.map { $0.stdout + $0.stderr } ?? "")
        }
    }

    /// Runs `tool arguments` and returns its output whatever its status; throws ``Failed`` only when it
    /// cannot start or outlives `timeout` seconds (it is then killed).
    public static func run(
        _ tool: String, _ arguments: [String] = [], environment: [String: String] = [:], input: String? = nil,
        streams: Streams = .separate, timeout: Double = 300
    ) async throws -> Output {
        let child = try Child(tool, arguments, environment: environment, input: input, streams: streams)
        let deadline = Date().addingTimeInterval(timeout)
        while child.process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return try child.finish()
    }

    /// ``run(_:_:environment:input:streams:timeout:)`` for callers that cannot wait asynchronously: blocks
    /// the calling thread (meant for short commands such as a compiler run).
    public static func runBlocking(
        _ tool: String, _ arguments: [String] = [], environment: [String: String] = [:], input: String? = nil,
        streams: Streams = .separate, timeout: Double = 300
    ) throws -> Output {
        let child = try Child(tool, arguments, environment: environment, input: input, streams: streams)
        let deadline = Date().addingTimeInterval(timeout)
        while child.process.isRunning && Date() < deadline { usleep(10_000) }
        return try child.finish()
    }

    /// Like ``run(_:_:environment:input:streams:timeout:)`` with merged streams, but throws ``Failed`` (with
    /// everything printed) unless the command exits with status 0. Returns the merged output.
    @discardableResult
    public static func check(
        _ tool: String, _ arguments: [String] = [], environment: [String: String] = [:], timeout: Double = 300
    ) async throws -> String {
        let output = try await run(tool, arguments, environment: environment, streams: .merged, timeout: timeout)
        guard output.succeeded else {
            let how = output.exited ? "exited with \(output.status)" : "was killed by signal \(output.status)"
            throw Failed(command: ([tool] + arguments).joined(separator: " "), output: output, reason: how)
        }
        return output.stdout
    }

    /// Stops a long-running child (a server, a host): SIGTERM, then SIGKILL if it is still there after
    /// `grace` seconds. Polls `isRunning`: `waitUntilExit()` can spin forever when called from a Swift
    /// concurrency thread with swift-corelibs-foundation.
    public static func stop(_ process: Process, grace: Double = 3) {
        guard process.isRunning else { return }
        process.terminate()
        var deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { usleep(10_000) }
    }

    /// Starts a long-running child (a server, a daemon) that prints where to reach it as its first line, and
    /// returns it with that line (without the newline). Its standard output goes to a file in `folder` (a pipe
    /// nobody reads would fill up). Throws ``Failed`` when no whole line comes within `timeout` seconds (the
    /// child is then stopped). Stop it with ``stop(_:grace:)``.
    public static func startReadingFirstLine(
        _ executable: String, _ arguments: [String], in folder: String, timeout: Double = 15
    ) async throws -> (process: Process, line: String) {
        let printed = (folder as NSString).appendingPathComponent("first-line")
        FileManager.default.createFile(atPath: printed, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle(forWritingAtPath: printed)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(timeout)
        while !text.contains("\n") && process.isRunning && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
            text = (try? String(contentsOfFile: printed, encoding: .utf8)) ?? ""
        }
        guard let newline = text.firstIndex(of: "\n") else {
            stop(process)
            let command = ([executable] + arguments).joined(separator: " ")
            throw Failed(command: command, output: nil, reason: "printed no whole line in \(timeout) s: \(text)")
        }
        return (process, String(text[..<newline]))
    }

    /// A started command and the pipes it prints into.
    private final class Child {
        let process = Process()
        let command: String
        private let out = Pipe()
        private let err: Pipe?
        private let collectedOut = Collected()
        private let collectedErr = Collected()

        init(
            _ tool: String, _ arguments: [String], environment: [String: String], input: String?, streams: Streams
        ) throws {
            command = ([tool] + arguments).joined(separator: " ")
            if tool.contains("/") {
                process.executableURL = URL(fileURLWithPath: tool)
                process.arguments = arguments
            } else {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [tool] + arguments
            }
            if !environment.isEmpty {
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            }
            err = streams == .separate ? Pipe() : nil
            process.standardOutput = out
            process.standardError = err ?? out
            let stdin = input.map { _ in Pipe() }
            process.standardInput = stdin ?? FileHandle.nullDevice
            out.fileHandleForReading.readabilityHandler = { [collectedOut] in collectedOut.append($0.availableData) }
            err?.fileHandleForReading.readabilityHandler = { [collectedErr] in collectedErr.append($0.availableData) }
            try process.run()
            if let stdin, let input {
                let writer = stdin.fileHandleForWriting
                Thread.detachNewThread {  // a large input must not block us while the child fills its output
                    writer.write(Data(input.utf8))
                    try? writer.close()
                }
            }
        }

        /// Kills the command if it still runs, then collects the rest of its output.
        func finish() throws -> Output {
            let timedOut = process.isRunning
            if timedOut { ProcessRunner.stop(process) }
            for (pipe, collected) in [(out, collectedOut), (err, collectedErr)] {
                guard let pipe else { continue }
                pipe.fileHandleForReading.readabilityHandler = nil
                collected.append(pipe.fileHandleForReading.readDataToEndOfFile())
                // Both ends now, not whenever Foundation lets the handles go: a test run starts thousands of
                // commands, and Process.run() misreads /proc/self/fd once the test process holds enough
                // descriptors (HostProcess's deinit says more).
                try? pipe.fileHandleForReading.close()
                try? pipe.fileHandleForWriting.close()
            }
            let output = Output(
                status: process.terminationStatus, exited: process.terminationReason == .exit,
                stdout: collectedOut.text, stderr: collectedErr.text)
            if timedOut { throw Failed(command: command, output: output, reason: "did not finish in time") }
            return output
        }
    }

    private final class Collected: Sendable {
        private let data = Mutex(Data())
        func append(_ more: Data) { data.withLock { $0.append(more) } }
        var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
    }
}
