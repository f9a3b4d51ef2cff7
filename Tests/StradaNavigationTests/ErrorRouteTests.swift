import Foundation
import Testing

@testable import StradaNavigation

/// Error screens by status, and a status the path configuration routes (`settings.error_routes`): the wording
/// never blames the server for a client status, and a routed 401 presents sign-in over its error screen, as
/// upstream demos do in their own code.
@MainActor
@Suite struct ErrorRouteTests {
    @Test(arguments: [
        (0, "Could not connect: Connection refused", "Can't Reach the Server", "did not answer"),
        (0, "Unacceptable TLS certificate", "Can't Connect Securely", "could not prove its identity"),
        (401, "HTTP 401", "Sign-In Required", "needs you to sign in"),
        (403, "HTTP 403", "Access Denied", "Your account may not see this page"),
        (404, "HTTP 404", "Page Not Found", "has no page at this address"),
        (422, "HTTP 422", "The Page Could Not Be Loaded", "could not use this request"),
        (503, "HTTP 503", "Server Error", "the server has a problem"),
    ])
    func eachClassOfFailureHasItsOwnWords(status: Int, detail: String, title: String, phrase: String) {
        let error = VisitError(url: "https://app.example/posts", statusCode: status, detail: detail)
        #expect(error.title == title)
        #expect(error.message.contains(phrase), "\(error.message)")
        if (400..<500).contains(status) {
            #expect(!error.message.contains("server has a problem"), "a client status never blames the server")
        }
    }

    @Test func aRouteIsOnTheFailedURLsOriginWithItsURLFilledIn() {
        let failed = "https://app.example/posts/7?tab=2"
        #expect(
            Navigator.errorRouteTarget("/signin?return_to={url}", failed: failed)
                == "https://app.example/signin?return_to=https%3A%2F%2Fapp%2Eexample%2Fposts%2F7%3Ftab%3D2")
        #expect(Navigator.errorRouteTarget("https://id.example/login", failed: failed) == "https://id.example/login")
    }

    /// 401 on a Turbo visit: its error screen, then the route visited as a link — a modal by its rule — over it;
    /// the sign-in ending with turbo-rails' refresh dismisses the modal and retries the failed visit.
    @Test func aRouted401PresentsSignInOverTheErrorScreenAndARefreshRetriesTheVisit() async throws {
        let site = ["/posts": ["menu"], "/secret": ["save"], "/signin": ["save"]]
        let page = FakePage(turbo: true, site: site)
        page.start("/posts")
        try page.rules.set([("/signin", #"{"context": "modal"}"#)])
        page.navigator.errorRoute = { $0 == 401 ? "/signin?return_to={url}" : nil }
        page.failing["/secret"] = 401
        page.click("/secret")
        #expect(page.window.shown == "error 401")
        try await Task.sleep(for: .milliseconds(20))
        let modal = try #require(page.modal)
        #expect(modal.paths.hasPrefix("/signin?return_to="))
        #expect(page.paths == "/posts /secret")

        page.failing["/secret"] = nil
        modal.click("/refresh_historical_location")
        #expect(page.navigator.modal == nil)
        #expect(page.window.calls.contains(.load(FakePage.url("/secret"))), "the failed visit is retried")
        #expect(page.window.shown == "web")
        #expect(page.paths == "/posts /secret")
    }

    @Test func aStatusThatIsNotRoutedOnlyShowsItsErrorScreen() async throws {
        let page = FakePage(turbo: true, site: ["/posts": ["menu"], "/secret": []])
        page.start("/posts")
        page.navigator.errorRoute = { $0 == 401 ? "/signin" : nil }
        page.failing["/secret"] = 403
        page.click("/secret")
        try await Task.sleep(for: .milliseconds(20))
        #expect(page.window.shown == "error 403")
        #expect(page.modal == nil && page.paths == "/posts /secret")
    }
}
