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
