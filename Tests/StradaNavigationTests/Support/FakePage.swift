import Logging
import StradaCore
import StradaNavigation
import StradaTesting

/// Components of the test pages: each shows one button, `<name>.button`, when its page element connects.
class ButtonComponent: BridgeComponent {
    override func onReceive(message: Message) {
        guard message.event == "connect" else { return }
        controls?.setButton(HeaderButton(id: "button", title: Self.name), onActivate: {})
    }
}
final class SaveComponent: ButtonComponent { override nonisolated class var name: String { "save" } }
final class MenuComponent: ButtonComponent { override nonisolated class var name: String { "menu" } }
final class FrameComponent: ButtonComponent { override nonisolated class var name: String { "frame" } }

/// The page in a ``FakeWindow``, played as the real one behaves: with Turbo (and our adapter) or without,
/// answering the navigator's calls as the page would (Turbo visits, restores, loads, "native:restore"), and
/// connecting the components of each page it renders. `site` says which components each path has.
@MainActor
final class FakePage {
    let window: FakeWindow
    let navigator: Navigator
    /// Whether the app's pages run Turbo.
    let turbo: Bool
    /// The components of each page, by path ("/posts/new": ["save"]).
    var site: [String: [String]]
    /// Turbo 8 pages with `turbo-refresh-method: morph`: a page refresh keeps the controllers connected.
    var morph = false
    /// Paths whose Turbo visits (and loads) fail with an HTTP status.
    var failing: [String: Int] = [:]
    /// Paths Turbo cannot render in place (`turbo-visit-control: reload`): their visit changes history, then
    /// the adapter reports `pageInvalidated` and the navigator loads the page in full.
    var invalidating: Set<String> = []
    /// The document shown has not finished loading: a traversal within it stops the load, and its Turbo, not
    /// started yet, leaves the traversal alone.
    var stillLoading = false
    /// Modals presented over this page's navigator, newest last.
    private(set) var modals: [FakePage] = []
    /// Visits the navigator starts (`visit`) wait in ``held`` until ``runHeldVisits()``: what happens between a
    /// screen's push and its visit's start.
    var holdVisits = false
    private var held: [(url: String, action: VisitAction)] = []
    /// The components connected in the page now.
    private(set) var connected: [String] = []
    /// Connect messages sent, newest last.
    private(set) var connects = 0
    private var proposals: [Int: VisitProposal] = [:]
    private var counter = 0
    private var lastProposal = 0  // the adapter counts proposals from 1 in each document
    private var documents = 0

    static let origin = "https://app.test"
    static var registrations: [ComponentRegistration] {
        [
            ComponentRegistration(SaveComponent.self), ComponentRegistration(MenuComponent.self),
            ComponentRegistration(FrameComponent.self),
        ]
    }

    /// The path configuration every stack of the test reads (tests change it between steps).
    final class Rules {
        var configuration = PathConfiguration()
        /// Rules as (path pattern, properties JSON) pairs, in order.
        func set(_ rules: [(String, String)]) throws {
            let list = rules.map { rule in
                let pattern = rule.0.replacingOccurrences(of: "\\", with: "\\\\")
                return #"{"patterns": ["\#(pattern)"], "properties": \#(rule.1)}"#
            }
            configuration = try PathConfiguration(json: #"{"rules": [\#(list.joined(separator: ","))]}"#)
        }
    }
    let rules: Rules

    init(turbo: Bool = true, site: [String: [String]] = [:], kind: Stack = .main, rules: Rules = Rules()) {
        window = FakeWindow()
        var logger = Logger(label: "navigator-tests")
        logger.logLevel = .critical
        navigator = Navigator(
            window: window, registrations: Self.registrations, originPolicy: OriginPolicy(allowed: [Self.origin]),
            logger: logger, kind: kind)
        self.turbo = turbo
        self.site = site
        self.rules = rules
        navigator.pathProperties = { rules.configuration.properties(for: $0) }
        window.onCall = { [unowned self] call in self.answer(call) }
        navigator.makeModal = { [unowned self] url, _ in
            let modal = FakePage(turbo: self.turbo, site: self.site, kind: .modal, rules: rules)
            modal.morph = self.morph
            modal.failing = self.failing
            self.modals.append(modal)
            modal.window.requestedURL = url
            modal.load(url)
            return modal.navigator
        }
    }

    static func url(_ path: String) -> String { path.hasPrefix("http") ? path : origin + path }
    static func path(_ url: String) -> String {
        guard url.hasPrefix(origin) else { return url }
        return String(url.dropFirst(origin.count).prefix { $0 != "#" })
    }

    private func next(_ prefix: String) -> String {
        counter += 1
        return "\(prefix)\(counter)"
    }

    // MARK: What the user does in the page

    /// The host loads the start page.
    func start(_ path: String) {
        window.requestedURL = Self.url(path)
        load(Self.url(path))
    }

    /// A link (or `Turbo.visit`): Turbo proposes it (or the adapter refreshes the page shown in place);
    /// without Turbo, a full load.
    func click(_ path: String, action: VisitAction = .advance) {
        let url = Self.url(path)
        guard turbo else {
            if navigator.route(.navigation(url: url, redirect: false)) { return }
            load(url)
            return
        }
        propose(url, action: action)
    }

    /// A form submission answered by a redirect to `path` (Turbo 8 proposes `replace` for the URL shown).
    func submit(redirectingTo path: String) {
        let url = Self.url(path)
        guard turbo else {
            load(url)
            return
        }
        propose(url, action: Self.path(url) == Self.path(window.current?.url ?? "") ? .replace : .advance)
    }

    /// What our adapter does with a Turbo proposal.
    func propose(_ url: String, action: VisitAction, willRender: Bool = true, frame: Bool = false) {
        if !frame, Self.path(url) == Self.path(window.current?.url ?? "") {
            navigator.turbo(.refreshing(location: url))
            run(url, action: willRender ? .replace : action, willRender: willRender)
            return
        }
        lastProposal += 1
        let proposal = VisitProposal(
            number: lastProposal, location: url, action: action, willRender: willRender, frame: frame)
        proposals[lastProposal] = proposal
        navigator.turbo(.visitProposed(proposal))
    }

    /// A `<turbo-frame data-turbo-action>` navigation to `path`: the adapter's notice, the render (the frame's
    /// component connects), history, then the proposal. `notice: false`: a Turbo build without it.
    /// `beforeProposal` runs between the render and the proposal (the user acting meanwhile).
    func frameNavigation(
        to path: String, action: VisitAction = .advance, notice: Bool = true, beforeProposal: () -> Void = {}
    ) {
        let url = Self.url(path)
        if notice { navigator.turbo(.frameVisitStarting(location: url, action: action)) }
        connected.append("frame")
        connect(["frame"])
        beforeProposal()
        if action == .replace {
            window.replaceEntry(url: url, restorationIdentifier: window.current?.restorationIdentifier)
        } else {
            window.pushEntry(
                url: url, restorationIdentifier: window.current?.restorationIdentifier, document: documents)
        }
        propose(url, action: action, willRender: false, frame: true)
    }

    /// The page's own `history.back()` / `history.forward()`.
    func historyBack() { traverse(by: -1) }
    func historyForward() { traverse(by: 1) }

    // MARK: The page's part

    private func answer(_ call: FakeWindow.Call) {
        switch call {
        case .turbo(.visitProposal(let number, let action)):
            guard let proposal = proposals.removeValue(forKey: number) else { return }
            run(proposal.location, action: action, willRender: proposal.willRender)
        case .turbo(.visit(let url, let action)):
            guard !holdVisits else { return held.append((url, action)) }
            run(url, action: action, willRender: true)
        case .turbo(.discardProposal(let number)):
            proposals[number] = nil
        case .turbo(.restored):
            connect(connected)
        case .turbo(.replaceLocation(let url)):
            load(url, replacing: true)
        case .load(let url):
            load(url)
        case .reload:
            newDocument(at: window.current?.url ?? "", entry: .reload)
        case .goBack:
            if let target = window.goBackTarget { traverse(to: target) } else { traverse(by: -1) }
        case .browser, .system:
            break
        }
    }

    /// Starts the visits held while ``holdVisits`` was on, in order.
    func runHeldVisits() {
        let visits = held
        held = []
        for visit in visits { run(visit.url, action: visit.action, willRender: true) }
    }

    /// A Turbo visit as Turbo runs it with our adapter.
    private func run(_ url: String, action: VisitAction, willRender: Bool) {
        let identifier = next("visit-")
        let restoration = action == .advance ? next("restoration-") : window.current?.restorationIdentifier
        navigator.turbo(
            .visitStarted(identifier: identifier, location: url, action: action, restorationIdentifier: restoration))
        if let status = failing[Self.path(url)] {
            navigator.turbo(.visitRequestFailed(identifier: identifier, location: url, statusCode: status))
            return
        }
        let refresh = action == .replace && Self.path(url) == Self.path(window.current?.url ?? "")
        if invalidating.contains(Self.path(url)) {
            window.pushEntry(url: url, restorationIdentifier: restoration, document: documents)
            navigator.turbo(.pageInvalidated(location: url, reason: "turbo_visit_control_is_reload"))
            return
        }
        if willRender {
            if action == .advance {
                window.pushEntry(url: url, restorationIdentifier: restoration, document: documents)
            } else {
                window.replaceEntry(url: url, restorationIdentifier: restoration)
            }
            render(url, refresh: refresh)
        }
        navigator.turbo(
            .visitCompleted(identifier: identifier, location: url, restorationIdentifier: restoration, title: nil))
    }

    /// Turbo renders the page at `url`: the body is replaced (every controller connects), or a page refresh
    /// is morphed (the controllers stay connected).
    private func render(_ url: String, refresh: Bool) {
        navigator.titleChanged(Self.title(of: url))  // the document's <title> changes with the body
        if refresh && morph { return }
        connected = components(of: url)
        connect(connected)
    }

    /// A page's `<title>`: "Title of /posts".
    static func title(of url: String) -> String { "Title of " + path(url) }

    /// The components of the page at `url` (whatever its query).
    private func components(of url: String) -> [String] {
        site[String(Self.path(url).prefix { $0 != "?" })] ?? []
    }

    private func connect(_ names: [String]) {
        let url = window.webView.currentURL ?? ""
        for name in names {
            connects += 1
            let head = #"{"id":"\#(connects)","component":"\#(name)","event":"connect""#
            window.bridge.receive(json: head + #","data":{"metadata":{"url":"\#(url)"}}}"#)
        }
    }

    private enum EntryChange { case push, replace, reload }

    /// A full load of `url` (a new document). A load of the URL shown takes over its history entry, as
    /// WebKit's does, and that entry still counts as the earlier document's for a traversal.
    func load(_ url: String, replacing: Bool = false) {
        if let status = failing[Self.path(url)], status <= 0 {
            navigator.loadFailed(VisitError(url: url, statusCode: 0, detail: "no connection"))
            return
        }
        let sameURL = window.current?.url == url
        newDocument(at: url, entry: sameURL ? .reload : replacing ? .replace : .push)
    }

    private func newDocument(at url: String, entry: EntryChange) {
        documents += 1
        let restoration = turbo ? next("restoration-") : nil
        switch entry {
        case .push: window.pushEntry(url: url, restorationIdentifier: restoration, document: documents)
        case .replace: window.replaceEntry(url: url, restorationIdentifier: restoration, document: documents)
        case .reload: window.replaceEntry(url: url, restorationIdentifier: restoration)
        }
        window.committedURL = url
        connected = []
        navigator.pageCommitted(url: url)
        // As WebKit reports it: a new document has no title until its <title> is parsed.
        navigator.titleChanged("")
        if failing[Self.path(url)] == nil, !stillLoading { navigator.titleChanged(Self.title(of: url)) }
        if let status = failing[Self.path(url)] {
            navigator.httpError(VisitError(url: url, statusCode: status, detail: "Not Found"))
            return
        }
        navigator.bridgeReady()
        if turbo { navigator.turbo(.ready(location: url, restorationIdentifier: restoration, version: "8")) }
        connected = components(of: url)
        connect(connected)
    }

    /// A history traversal: within the document, Turbo's restore visit (its snapshot rendered: every
    /// controller connects); to another document, WebKit's back/forward cache shows it again, and the
    /// adapter's `pageshow` sends "native:restore".
    private func traverse(by steps: Int) {
        guard
            let target = window.entries.indices.contains(window.index + steps)
                ? window.entries[window.index + steps] : nil
        else { return }
        traverse(to: target)
    }

    private func traverse(to target: FakeEntry) {
        let sameDocument = target.document == window.current?.document
        if sameDocument && stillLoading {
            // As WebKit reports it: the address changes first, the current history entry only once the
            // stopped load has finished.
            stillLoading = false
            navigator.historySettled(.locationChanged)
            window.traverse(to: target)
            navigator.historySettled(.loadFinished)
            return
        }
        window.traverse(to: target)
        if sameDocument && turbo {
            let identifier = next("visit-")
            navigator.turbo(
                .visitStarted(
                    identifier: identifier, location: target.url, action: .restore,
                    restorationIdentifier: target.restorationIdentifier))
            render(target.url, refresh: false)
            navigator.turbo(
                .visitCompleted(
                    identifier: identifier, location: target.url, restorationIdentifier: target.restorationIdentifier,
                    title: nil))
        } else if sameDocument {
            navigator.historySettled(.locationChanged)
        } else {
            window.committedURL = target.url
            navigator.pageCommitted(url: target.url)
            connected = components(of: target.url)
            connect(connected)  // pageshow (persisted): "native:restore"
        }
    }

    // MARK: What the tests read

    /// The stack, as paths ("/ /posts /posts/new").
    var paths: String { navigator.stack.map { Self.path($0.url) }.joined(separator: " ") }
    /// The control ids shown in the window.
    var shown: [String] { window.shownControls }
    /// The control ids the page shown has made: one button per connected component.
    var expected: [String] { Set(connected).map { "\($0).button" }.sorted() }
    /// The newest modal, if one is presented.
    var modal: FakePage? { navigator.modal == nil ? nil : modals.last }
}
