import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

// MARK: f. The window's title

extension NavigationTests {
    /// The window's titles after `mark` (`window.title` events), in order.
    static func titles(_ app: App, after mark: Int) -> [String] {
        app.host.events.dropFirst(mark).filter { HostProcess.name(of: $0) == .windowTitle }
            .compactMap { $0["title"]?.stringValue }
    }

    /// The title shown is always the shown screen's (issue 36): a push never re-announces the page being left
    /// and ends on the new page's; Back shows the restored page's title first.
    @Test(arguments: Turbo.available)
    func thePushedScreensTitleNeverThePreviousPagesAndBacksAtOnce(turbo: Turbo) async throws {
        let app = try await App.start(turbo, page: "page/start?right=/page/second")
        try await app.next(.windowTitle, after: 0) { $0["title"]?.stringValue?.hasPrefix("start #") == true }
        var mark = app.mark
        try await app.press("button.button-right")
        try await app.next(.windowTitle, after: mark) { $0["title"]?.stringValue?.hasPrefix("second #") == true }
        let pushed = Self.titles(app, after: mark)
        #expect(!pushed.contains { $0.hasPrefix("start #") }, "the page left was announced again: \(pushed)")

        mark = app.mark
        try await app.perform(["command": "back"])
        try await app.next(.screenPopped, after: mark)
        try await app.next(.windowTitle, after: mark) { $0["title"]?.stringValue?.hasPrefix("start #") == true }
        let back = Self.titles(app, after: mark)
        #expect(back.first?.hasPrefix("start #") == true, "Back showed another title first: \(back)")
        try await app.stop()
    }

    /// A reload of a page whose `<title>` comes 1.5 s after its document is committed: the title shown stays the
    /// page's own all along (before, the window fell back to the app's name until the new title came).
    @Test func aSlowReloadKeepsTheTitle() async throws {
        let app = try await App.start(nil, page: "slow-title")
        try await app.next(.windowTitle, after: 0, timeout: 20) { $0["title"] == "slow title #1" }
        let mark = app.mark
        try await app.perform(["command": "reload"])
        try await app.next(.windowTitle, after: mark, timeout: 20) { $0["title"] == "slow title #2" }
        let during = Self.titles(app, after: mark)
        #expect(during.allSatisfy { $0.hasPrefix("slow title #") }, "\(during)")
        try await app.stop()
    }
}
