import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// What the end-to-end suites read of a host's output: every line is an event, and a line that is not JSON is not
/// lost. A shell script stands in for `strada-host` here, writing the lines a host could write.
@Suite(.temporaryDirectories)
struct HostProcessEventsTests {
    @Test func aLineThatIsNotJSONIsKeptAsAnUnreadableLineEvent() async throws {
        let script = (FileManager.default.temporaryDirectory.path as NSString).appendingPathComponent("fake-host")
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        try """
        #!/bin/sh
        echo '{"event": "page.finished", "url": "about:blank"}'
        echo 'not an event'
        echo '{"event": "bridge.received", "deep": \(deep)}'
        echo '{"event": "host.ready", "components": []}'
        sleep 5
        """.write(toFile: script, atomically: true, encoding: .utf8)
        #expect(chmod(script, 0o755) == 0)
        let host = try HostProcess(page: "about:blank", arguments: [], executable: script)
        try await host.waitFor(.hostReady)
        let names = host.events.map { $0["event"]?.stringValue ?? "?" }
        #expect(names == ["page.finished", HostProcess.unreadableLine, "bridge.received", "host.ready"])
        let unreadable = host.events[1]
        #expect(unreadable["start"] == "not an event")
        #expect(unreadable["error"]?.stringValue?.isEmpty == false)
        // Deeper than a bridge message may be: still read (the host writes what a page sent).
        #expect(host.events[2]["deep"]?.arrayValue?.count == 1)
    }
}
