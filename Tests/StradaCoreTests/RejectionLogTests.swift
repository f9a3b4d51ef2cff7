import Logging
import StradaCore
import StradaTesting
import Testing

/// The rejection log is throttled without hiding anything: every kind of rejection gets a line, and what
/// the throttle held back is counted in a line of its own when its second is over.
@MainActor
struct RejectionLogTests {
    let store = InMemoryLogHandler.Store()
    let bridge: Bridge

    init() {
        let store = store
        bridge = Bridge(
            webView: InMemoryWebView(url: "https://app.test/"),
            logger: Logger(label: "test") { _ in
                InMemoryLogHandler(store: store)
            })
    }

    var lines: [String] { store.messages }

    @Test func everyKindOfRejectionIsLoggedEvenDuringAFloodOfAnother() {
        for _ in 0..<50 { bridge.receive(json: "not json") }
        bridge.receive(json: #"{"id":"3","component":"form","event":"connect","data":"text"}"#)
        bridge.receive(json: #"{"component":"form","event":"connect"}"#)
        bridge.receive(json: String(repeating: "[", count: 10_000))
        bridge.rejectOversized(bytes: 64 << 20, head: #"{"id":"6","#)
        #expect(lines.contains { $0.contains("\"data\" that is not an object") })
        #expect(lines.contains { $0.contains("has no string \"id\"") })
        #expect(
            lines.contains { $0.contains("deeper than") || $0.contains("nesting") || $0.contains("depth") }, "\(lines)")
        #expect(lines.contains { $0.contains("limit is 16777216") })
        #expect(lines.count <= 20)
    }

    @Test func whatTheThrottleHeldBackIsCountedWhenTheSecondIsOver() async throws {
        for _ in 0..<50 { bridge.receive(json: "not json") }
        let logged = lines.count
        try await Task.sleep(for: .milliseconds(1_300))
        let summary = lines.dropFirst(logged)
        #expect(summary.count == 1)
        #expect(
            summary.first?.hasPrefix(
                "\(50 - logged) more malformed messages rejected and not logged in the last second") == true,
            "\(lines)")
    }
}
