import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

// MARK: b. A failed visit, retried (continued)

extension NavigationTests {
    /// A link to a page whose server answers nothing (the connection ends: a server going away): Turbo gets no
    /// response, the visit loads in full, fails, and its screen (depth 2) shows the error screen. Retry, once the
    /// server answers again, loads the page into that screen; Back pops to the screen below (issue 36: seen
    /// staying on the retried screen with a Turbo 8 app).
    @Test(arguments: Turbo.available)
    func retryAfterNoResponseLoadsThePageAndBackPopsToTheScreenBelow(turbo: Turbo) async throws {
        let start = "page/start?right=/dropping&left=/flaky"
        let app = try await App.start(turbo, page: start)
        try await app.expectControls(Self.startControls, since: 0)
        var mark = app.mark
        try await app.press("button.button-right")
        let error = try await app.next(.screenError, after: mark)
        #expect(error["statusCode"] == 0 && Self.path(error) == "/dropping")
        #expect(app.screenChanges(after: mark).last?.hasPrefix("screen.pushed main 2 ") == true)

        try await ProcessRunner.check("/usr/bin/curl", ["-fsS", app.url("dropping/fix")])
        mark = app.mark
        try await app.perform(["command": "retry"])
        try await app.next(.pageCommitted, after: mark) { Self.path($0) == "/dropping" }
        try await app.expectControls(["button.button-right=dropping right"], since: mark)
        #expect(app.screenChanges(after: mark) == [], "Retry loads into the error screen's own screen")

        mark = app.mark
        try await app.perform(["command": "back"])
        let popped = try await app.next(.screenPopped, after: mark)
        #expect(popped["depth"] == 1 && Self.path(popped) == "/" + start)
        try await app.expectControls(Self.startControls, since: mark)
        try await app.stop()
    }
}

// MARK: b. A failed visit, routed by its status

extension NavigationTests {
    /// The fixture's path configuration routes 401 (`settings.error_routes`) to `/page/signin?return_to={url}`,
    /// a modal by its rule: a link to a page answering 401 shows its error screen ("Sign-In Required") at depth 2,
    /// and sign-in is presented over it with the failed URL; cancelling the modal leaves the error screen.
    @Test(arguments: Turbo.available)
    func a401RoutedBySettingsPresentsSignInOverItsErrorScreen(turbo: Turbo) async throws {
        let app = try await App.start(turbo, page: "page/start?right=/private&left=/flaky")
        try await app.expectControls(Self.startControls, since: 0)
        let mark = app.mark
        try await app.press("button.button-right")
        let error = try await app.next(.screenError, after: mark)
        #expect(error["statusCode"] == 401 && error["title"] == "Sign-In Required")
        let presented = try await app.next(.modalPresented, after: mark)
        let failed = NavigationTests.query(app.url("private"))
        #expect(Self.path(presented) == "/page/signin?return_to=\(failed)", "\(presented)")
        #expect(app.screenChanges(after: mark).first?.hasPrefix("screen.pushed main 2 ") == true)
        try await app.stop()
    }
}
