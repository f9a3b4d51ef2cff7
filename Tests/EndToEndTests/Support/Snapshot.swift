import Foundation
import TestSupport
import Testing

/// Runs the real `strada-host` binary and compares what it printed with a snapshot file in
/// `Tests/EndToEndTests/Snapshots/`. Re-record with `SNAPSHOT_RECORD=1 scripts/test`.
enum CLISnapshot {
    static func run(_ arguments: [String]) throws -> ProcessRunner.Output {
        try ProcessRunner.runBlocking(BuiltProducts.path("strada-host"), arguments, environment: ["COLUMNS": "100"])
    }

    /// The system plugins folder of the host just built (`<prefix>/lib/strada/plugins` beside its `bin`
    /// folder), written `$SYSTEM` in snapshots.
    static var systemPlugins: String {
        let binary = URL(fileURLWithPath: BuiltProducts.path("strada-host")).resolvingSymlinksInPath()
        return binary.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "lib/strada/plugins"
        )
        .path
    }

    /// Runs `arguments`, replaces each `replacements` key with its placeholder (and the system plugins folder
    /// with `$SYSTEM`), and checks the snapshot `name`.
    static func check(
        _ name: String, _ arguments: [String], replacing replacements: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let output = try run(arguments)
        var text =
            "$ strada-host \(arguments.joined(separator: " "))\nexit: \(output.status)\n--- "
            + "stdout\n\(output.stdout)--- stderr\n\(output.stderr)"
        let all = replacements.merging([systemPlugins: "$SYSTEM"]) { given, _ in given }
        for (value, placeholder) in all.sorted(by: { $0.key.count > $1.key.count }) {
            text = text.replacingOccurrences(of: value, with: placeholder)
        }
        let path = Repository.path("Tests/EndToEndTests/Snapshots/\(name).txt")
        if ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1" {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = try? String(contentsOfFile: path, encoding: .utf8)
        #expect(
            expected != nil, "no snapshot \(name).txt yet: run with SNAPSHOT_RECORD=1 to record it",
            sourceLocation: sourceLocation)
        if let expected {
            #expect(
                text == expected,
                "output differs from Snapshots/\(name).txt (re-record with SNAPSHOT_RECORD=1 if intended)",
                sourceLocation: sourceLocation)
        }
    }
}
