import StradaCore
import Testing

@testable import StradaNavigation

/// Where navigations go: the app's origins stay, other web addresses go to the browser, other schemes to the
/// system; what the host itself loads is loaded whatever its origin.
@Suite struct RouteTests {
    let policy = OriginPolicy(allowed: ["http://127.0.0.1:8000"])

    func decide(_ request: RouteRequest, requested: String? = nil, shown: String? = nil) -> Route {
        Route.decide(request, policy: policy, hostRequested: requested, shown: shown)
    }

    @Test func framesNavigateToWebSchemesAndHandOtherSchemesToTheSystem() {
        #expect(decide(.navigation(url: "http://127.0.0.1:8000/posts", redirect: false)) == .app)
        // The frame is not known here: another origin is decided when its response comes (see below).
        #expect(decide(.navigation(url: "https://example.org/", redirect: false)) == .app)
        for url in ["about:blank", "data:text/html,x", "blob:http://127.0.0.1:8000/1", "file:///tmp/a.html"] {
            #expect(decide(.navigation(url: url, redirect: false)) == .app, "\(url)")
        }
        for url in ["mailto:team@example.com?subject=Hi", "tel:+4930123", "sms:123", "MAILTO:a@b.c", "zoommtg://x"] {
            #expect(decide(.navigation(url: url, redirect: false)) == .system(url), "\(url)")
        }
    }

    @Test func theMainFramesResponseFromAnotherOriginGoesToTheBrowser() {
        #expect(decide(.response(url: "http://127.0.0.1:8000/posts")) == .app)
        #expect(decide(.response(url: "http://localhost:8000/posts")) == .browser("http://localhost:8000/posts"))
        #expect(decide(.response(url: "https://example.org/x")) == .browser("https://example.org/x"))
        // Files and other schemes are not web origins to route.
        #expect(decide(.response(url: "file:///tmp/page.html")) == .app)
    }

    @Test func whatTheHostLoadsItselfIsLoadedWhateverItsOrigin() {
        let other = "http://localhost:8000/page.html"
        #expect(decide(.response(url: other), requested: other) == .app)
        #expect(decide(.response(url: other + "#part"), requested: other) == .app)
        // …and a reload of the document shown; but not a redirect from what it asked for to elsewhere.
        #expect(decide(.response(url: other), shown: other) == .app)
        #expect(
            decide(.response(url: "https://sso.example/login"), requested: "http://127.0.0.1:8000/")
                == .browser("https://sso.example/login"))
    }

    @Test func newWindowsOfTheAppAreVisitsOthersGoOut() {
        #expect(decide(.newWindow(url: "http://127.0.0.1:8000/posts")) == .visit("http://127.0.0.1:8000/posts"))
        #expect(decide(.newWindow(url: "https://example.org/")) == .browser("https://example.org/"))
        #expect(decide(.newWindow(url: "mailto:a@b.c")) == .system("mailto:a@b.c"))
        #expect(decide(.newWindow(url: "")) == .ignored)
        #expect(decide(.newWindow(url: "about:blank")) == .ignored)
    }

    @Test func schemesAreReadCaseInsensitivelyAndOnlyWhenWellFormed() {
        #expect(Route.scheme(of: "HTTPS://x") == "https")
        #expect(Route.scheme(of: "mailto:a@b") == "mailto")
        #expect(Route.scheme(of: "/relative:path") == "")
        #expect(Route.scheme(of: "no-scheme") == "")
        #expect(Route.scheme(of: "1http://x") == "")
    }
}
