import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Opening the X display: a connection an X server drops once (as it does to a client that connects just as it
/// resets) is tried again; a display that cannot be opened gets one line that names it.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct DisplayTests {
    /// `Fixtures/x-display-dropping-first.py`: an Xvfb of its own behind a display whose first connection is
    /// closed at once; stopped when released.
    final class DroppingDisplay {
        let name: String
        private let process: Process

        init() async throws {
            let (process, line) = try await ProcessRunner.startReadingFirstLine(
                "/usr/bin/env",
                ["python3", "-u", Repository.path("Tests/EndToEndTests/Fixtures/x-display-dropping-first.py")],
                in: try TemporaryDirectory.make("display"))
            self.process = process
            try #require(line.hasPrefix("DISPLAY=:"), "the fixture printed: \(line)")
            name = String(line.dropFirst("DISPLAY=".count))
        }

        deinit { ProcessRunner.stop(process) }
    }

    static let page = URL(fileURLWithPath: Repository.path("Examples/form-demo/index.html")).absoluteString

    @Test func aDisplayThatDropsTheFirstConnectionOpensOnTheSecondTry() async throws {
        let display = try await DroppingDisplay()
        let host = try HostProcess(
            page: Self.page, arguments: [], environment: ["DISPLAY": display.name, "GDK_BACKEND": "x11"])
        try await host.waitFor(.pageFinished)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0, "stderr: \(host.standardError)")
        let lines = host.standardError.split(separator: "\n").filter { $0.contains("dropped the first connection") }
        #expect(lines.count == 1, "stderr: \(host.standardError)")
    }

    @Test func aDisplayThatCannotBeOpenedGetsOneLineNamingIt() async throws {
        // A display number with no server: no socket for it.
        let free = (700..<800).first { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") } ?? 799
        let host = try HostProcess(
            page: Self.page, arguments: [], environment: ["DISPLAY": ":\(free)", "GDK_BACKEND": "x11"])
        #expect(try await host.waitForExit() == 2)
        let lines = host.standardError.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(host.standardError)")
        #expect(lines.first?.hasPrefix("strada-host: cannot open display :\(free): ") == true)
    }
}
