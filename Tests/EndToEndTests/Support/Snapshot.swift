import Foundation
import Testing

/// Runs the real `strada-host` binary and compares what it printed with a snapshot file in
/// `Tests/EndToEndTests/Snapshots/`. Re-record with `SNAPSHOT_RECORD=1 scripts/test`.
enum CLISnapshot {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("strada-host"))
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "100"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Runs `arguments`, replaces each `replacements` key with its placeholder, and checks the snapshot `name`.
    static func check(_ name: String, _ arguments: [String], replacing replacements: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let output = try run(arguments)
        var text = "$ strada-host \(arguments.joined(separator: " "))\nexit: \(output.status)\n--- stdout\n\(output.stdout)--- stderr\n\(output.stderr)"
        for (value, placeholder) in replacements.sorted(by: { $0.key.count > $1.key.count }) {
            text = text.replacingOccurrences(of: value, with: placeholder)
        }
        let path = Repository.path("Tests/EndToEndTests/Snapshots/\(name).txt")
        if ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1" {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = try? String(contentsOfFile: path, encoding: .utf8)
        #expect(expected != nil, "no snapshot \(name).txt yet: run with SNAPSHOT_RECORD=1 to record it", sourceLocation: sourceLocation)
        if let expected {
            #expect(text == expected, "output differs from Snapshots/\(name).txt (re-record with SNAPSHOT_RECORD=1 if the change is intended)", sourceLocation: sourceLocation)
        }
    }
}
