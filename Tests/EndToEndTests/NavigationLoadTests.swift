import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Turbo visits that cannot be rendered in place, with Turbo 7.1.0 and (with `TURBO_JS`) a Turbo 8 build: a
/// redirect out of the app's origin reaches the user's browser and the screen shown stays; a page Turbo
/// cannot render in place (`turbo-visit-control: reload`, Turbo's `pageInvalidated`) is loaded in full into its
/// own screen.
extension NavigationTests {
    @Test(arguments: Turbo.available)
    func aTurboVisitRedirectedToAnotherOriginOpensInTheBrowserAndTheScreenStays(turbo: Turbo) async throws {
        let app = try await App.start(turbo, page: "page/start?right=/away")
        try await app.expectControls(["button.button-right=start right"], since: 0)
        let mark = app.mark
        try await app.press("button.button-right")
        let opened = try await app.next(.browserOpened, after: mark)
        #expect(opened["url"]?.stringValue?.hasPrefix("http://localhost:") == true, "\(app.trace(after: mark))")
        // The screen the visit pushed is gone again: the start page is shown, alone on the stack.
        if app.screenChanges(after: mark).first?.hasPrefix("screen.pushed") == true {
            try await app.next(.screenPopped, after: mark)
        }
        let changes = app.screenChanges(after: mark)
        #expect(changes.isEmpty || changes.last?.hasPrefix("screen.popped main 1 /page/start") == true, "\(changes)")
        try await app.expectControls(["button.button-right=start right"], since: mark)
        try await app.stop()
    }

    /// With `stillLoading`, Back is pressed while the page's document is still loading (an image takes 3 s).
    @Test(arguments: Turbo.available, [false, true])
    func aPageTurboCannotRenderInPlaceIsLoadedInFullIntoItsScreen(turbo: Turbo, stillLoading: Bool) async throws {
        let target = stillLoading ? "/reloading?slow=1" : "/reloading"
        let app = try await App.start(turbo, page: "page/start?right=\(target)")
        try await app.expectControls(["button.button-right=start right"], since: 0)
        let mark = app.mark
        try await app.press("button.button-right")
        try await app.next(.pageCommitted, after: mark) { Self.path($0) == target }
        try await app.title("reloading", after: mark)
        #expect(app.screenChanges(after: mark) == ["screen.pushed main 2 \(target)"], "\(app.trace(after: mark))")
        try await app.expectControls(["button.button-right=reloading right"], since: mark)
        let back = app.mark
        try await app.perform(["command": "back"])
        try await app.next(.screenPopped, after: back)
        try await app.expectControls(["button.button-right=start right"], since: back)
        if stillLoading {
            // The traversal stopped the load before the page's Turbo could restore: the start page is loaded
            // again, not left showing the other page's document.
            _ = try await app.title("start", after: back)
        }
        try await app.stop()
    }
}
