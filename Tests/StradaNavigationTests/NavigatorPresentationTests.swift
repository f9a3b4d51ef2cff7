import StradaNavigation
import Testing

/// What each presentation and context does from the main stack, a one-screen modal and a two-screen modal,
/// to the URL shown, the URL of the screen below and another URL — upstream's decisions (hotwire-native-ios
/// `NavigationHierarchyController`, hotwire-native-android `NavigatorRule`), written out case by case.
@MainActor
@Suite struct NavigatorPresentationTests {
    /// Where the visit is proposed from: the main stack `/a /b`; a modal `/m1` over it; a modal `/m1 /m2`.
    enum Shape: String, CaseIterable, Sendable { case main, modal1, modal2 }

    struct Case: Sendable, CustomTestStringConvertible {
        let shape: Shape
        let properties: String
        let target: String
        let expected: String
        init(_ shape: Shape, _ properties: String, _ target: String, _ expected: String) {
            self.shape = shape
            self.properties = properties
            self.target = target
            self.expected = expected
        }
        var testDescription: String { "\(shape) \(properties) → \(target)" }
    }

    /// Builds the shape, then makes `target`'s rule `properties` (later rules win).
    static func arrange(_ shape: Shape, target: String, properties: String) throws -> FakePage {
        let site = ["/a": ["menu"], "/b": ["save"], "/m1": ["save"], "/m2": ["menu"], "/x": ["frame"]]
        let page = FakePage(turbo: true, site: site)
        page.start("/a")
        page.click("/b")
        let modalRule = #"{"context": "modal"}"#
        try page.rules.set([("/m1$", modalRule), ("/m2$", modalRule)])
        if shape != .main { page.click("/m1") }
        if shape == .modal2 { page.modal?.click("/m2") }
        try page.rules.set([("/m1$", modalRule), ("/m2$", modalRule), ("\(target)$", properties)])
        return page
    }

    static func outcome(_ page: FakePage) -> String {
        var text = "main " + page.paths
        if let modal = page.modal { text += " | modal " + modal.paths }
        return text
    }

    nonisolated static let cases: [Case] = [
        // From the main stack /a /b.
        Case(.main, #"{}"#, "/x", "main /a /b /x"),
        Case(.main, #"{}"#, "/a", "main /a"),
        Case(.main, #"{}"#, "/b", "main /a /b"),
        Case(.main, #"{"presentation": "push"}"#, "/x", "main /a /b /x"),
        Case(.main, #"{"presentation": "replace"}"#, "/x", "main /a /x"),
        Case(.main, #"{"presentation": "replace_root"}"#, "/x", "main /x"),
        Case(.main, #"{"presentation": "clear_all"}"#, "/x", "main /a"),
        Case(.main, #"{"presentation": "refresh"}"#, "/x", "main /a"),
        Case(.main, #"{"presentation": "pop"}"#, "/x", "main /a"),
        Case(.main, #"{"presentation": "none"}"#, "/x", "main /a /b"),
        Case(.main, #"{"context": "modal"}"#, "/x", "main /a /b | modal /x"),
        Case(.main, #"{"context": "modal", "presentation": "replace"}"#, "/x", "main /a /b | modal /x"),
        Case(.main, #"{"query_string_presentation": "replace"}"#, "/b\\?page=2", "main /a /b?page=2"),
        // From a one-screen modal /m1 over /a /b.
        Case(.modal1, #"{}"#, "/x", "main /a /b /x"),
        Case(.modal1, #"{}"#, "/b", "main /a /b"),
        Case(.modal1, #"{}"#, "/a", "main /a"),
        Case(.modal1, #"{"context": "modal"}"#, "/x", "main /a /b | modal /m1 /x"),
        Case(.modal1, #"{"context": "modal", "presentation": "replace"}"#, "/x", "main /a /b | modal /x"),
        Case(.modal1, #"{"presentation": "replace"}"#, "/x", "main /a /x"),
        Case(.modal1, #"{"presentation": "push"}"#, "/x", "main /a /b /x"),
        Case(.modal1, #"{"presentation": "pop"}"#, "/x", "main /a /b"),
        Case(.modal1, #"{"presentation": "refresh"}"#, "/x", "main /a /b"),
        Case(.modal1, #"{"presentation": "none"}"#, "/x", "main /a /b | modal /m1"),
        Case(.modal1, #"{"presentation": "clear_all"}"#, "/x", "main /a"),
        Case(.modal1, #"{"presentation": "replace_root"}"#, "/x", "main /x"),
        Case(.modal1, #"{"context": "modal", "presentation": "none"}"#, "/x", "main /a /b | modal /m1"),
        // From a two-screen modal /m1 /m2 over /a /b.
        Case(.modal2, #"{}"#, "/x", "main /a /b /x"),
        Case(.modal2, #"{"context": "modal"}"#, "/x", "main /a /b | modal /m1 /m2 /x"),
        Case(.modal2, #"{"context": "modal"}"#, "/m1", "main /a /b | modal /m1"),
        Case(.modal2, #"{"context": "modal", "presentation": "replace"}"#, "/x", "main /a /b | modal /m1 /x"),
        Case(.modal2, #"{"presentation": "pop"}"#, "/x", "main /a /b | modal /m1"),
        Case(.modal2, #"{"presentation": "refresh"}"#, "/x", "main /a /b | modal /m1"),
        Case(.modal2, #"{"presentation": "replace"}"#, "/x", "main /a /x"),
        Case(.modal2, #"{"presentation": "clear_all"}"#, "/x", "main /a"),
        Case(.modal2, #"{"presentation": "replace_root"}"#, "/x", "main /x"),
        Case(.modal2, #"{"presentation": "none"}"#, "/x", "main /a /b | modal /m1 /m2"),
        Case(.modal2, #"{}"#, "/b", "main /a /b"),
    ]

    @Test(arguments: cases)
    func presentation(_ test: Case) throws {
        let page = try Self.arrange(test.shape, target: test.target, properties: test.properties)
        let proposer = page.modal.map { $0.modal ?? $0 } ?? page
        proposer.click(test.target.replacingOccurrences(of: "\\", with: ""))
        #expect(Self.outcome(page) == test.expected)
        // Whichever stack is shown, its controls are exactly those its page made.
        let shown = page.modal ?? page
        #expect(shown.shown == shown.expected)
    }

    /// The `visit` command (a menu item, a link for a new window) is routed as upstream's `Navigator.route(url)`:
    /// the same rules decide the same stacks as for a link the page's Turbo proposes.
    @Test(arguments: cases)
    func visitCommand(_ test: Case) throws {
        let page = try Self.arrange(test.shape, target: test.target, properties: test.properties)
        let active = page.modal.map { $0.modal ?? $0 } ?? page
        active.navigator.visit(FakePage.url(test.target.replacingOccurrences(of: "\\", with: "")), action: .advance)
        #expect(Self.outcome(page) == test.expected)
        let shown = page.modal ?? page
        #expect(shown.shown == shown.expected)
    }

    /// turbo-rails' historical-location routes: from a modal, the modal goes first (whatever its depth);
    /// then recede pops the main stack, resume does nothing more, refresh refreshes the main stack's top.
    @Test(arguments: [
        (Shape.main, "recede", "main /a"), (.main, "resume", "main /a /b"), (.main, "refresh", "main /a /b"),
        (.modal1, "recede", "main /a"), (.modal1, "resume", "main /a /b"), (.modal1, "refresh", "main /a /b"),
        (.modal2, "recede", "main /a"), (.modal2, "resume", "main /a /b"), (.modal2, "refresh", "main /a /b"),
    ])
    func historicalLocation(shape: Shape, route: String, expected: String) throws {
        let page = try Self.arrange(shape, target: "/none", properties: "{}")
        let proposer = page.modal.map { $0.modal ?? $0 } ?? page
        let calls = page.window.calls.count
        proposer.click("/\(route)_historical_location")
        #expect(Self.outcome(page) == expected)
        #expect(page.shown == page.expected)
        let refreshed = page.window.calls[calls...].contains(.turbo(.visit(FakePage.url("/b"), .replace)))
        #expect(refreshed == (route == "refresh"))
        #expect(!page.window.calls[calls...].contains(.load(FakePage.url("/\(route)_historical_location"))))
    }
}
