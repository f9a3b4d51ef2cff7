import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

// MARK: d. query_string_presentation

extension NavigationTests {
    /// A rule's `query_string_presentation: replace` (the fixture's `^/page/search`): a link from `/page/search`
    /// to `/page/search?n=2` replaces the screen shown — one `screen.replaced`, the same depth, the page's own
    /// controls — as upstream's same-location rule does; it is neither a push nor silent (issue 36).
    @Test(arguments: Turbo.available)
    func aLinkThatChangesOnlyTheQueryUnderQueryStringReplaceReplacesTheScreen(turbo: Turbo) async throws {
        let next = Self.query("/page/search?n=2&left=/page/other")
        let app = try await App.start(turbo, page: "page/search?right=\(next)")
        try await app.expectControls(["button.button-right=search right"], since: 0)
        let mark = app.mark
        try await app.press("button.button-right")
        let replaced = try await app.next(.screenReplaced, after: mark)
        #expect(replaced["depth"] == 1 && Self.path(replaced) == "/page/search?n=2&left=/page/other")
        try await app.expectControls(["button.button-left=search left"], since: mark)
        #expect(
            app.screenChanges(after: mark).allSatisfy { $0.hasPrefix("screen.replaced main 1 ") },
            "\(app.screenChanges(after: mark))")
        try await app.stop()
    }
}

// MARK: e. A replace frame whose links differ only in a query

extension NavigationTests {
    /// hotwire-native-ios #53's page (`/forums`): links inside a `<turbo-frame data-turbo-action="replace">`
    /// that differ only in `?sort=`. Each one replaces the screen at depth 1 with the sorted URL, the frame's
    /// control follows its content, and the control outside the frame never goes away and comes back — the
    /// flash upstream's issue is about.
    @Test(arguments: Turbo.available)
    func aReplaceFramesQueryLinksReplaceTheScreenAndTheControlsOutsideStay(turbo: Turbo) async throws {
        let app = try await App.start(turbo, page: "forums")
        let outside = "button.button-right=forums right"
        try await app.expectControls(["button.button-left=sort newest left", outside], since: 0)
        for sort in ["trending", "unanswered"] {
            let mark = app.mark
            try await app.press("button.button-left")
            let replaced = try await app.next(.screenReplaced, after: mark)
            #expect(replaced["depth"] == 1 && Self.path(replaced) == "/forums?sort=\(sort)")
            try await app.expectControls(["button.button-left=sort \(sort) left", outside], since: mark)
            #expect(
                app.screenChanges(after: mark).allSatisfy { $0.hasPrefix("screen.replaced main 1 ") },
                "\(app.screenChanges(after: mark))")
            let removed = app.host.events.dropFirst(mark).filter {
                HostProcess.name(of: $0) == .controlRemoved && $0["id"] == "button.button-right"
            }
            #expect(removed.isEmpty, "the control outside the frame flashed: \(app.trace(after: mark))")
        }
        try await app.stop()
    }
}
