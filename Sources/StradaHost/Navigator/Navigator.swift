import Foundation
import Logging
import StradaAutomation
import StradaCore
import StradaEngineGTK
import StradaPluginHost

/// The main stack of screens, as Hotwire Native's navigator keeps it: every visit is a screen, the top
/// screen is the bridge destination, and Back brings the previous screen back with its controls.
///
/// Visits come from two places. With Turbo in the page, its adapter (`SDK/web/turbo-adapter.js`) proposes
/// each visit; the navigator decides (push, replace, pop, or a historical-location route), changes the
/// stack, and tells the adapter to run the visit. Without Turbo, every full page load is a visit: a new
/// history entry pushes, a replaced entry replaces, and a history traversal to an entry a screen holds
/// pops back to that screen. Back always goes through the web view's history (a Turbo restoration visit,
/// or a back/forward load that WebKit may restore from its back/forward cache), so the page, its history
/// and the stack never disagree.
@MainActor
final class Navigator {
    private(set) var stack: [Screen] = []
    var top: Screen? { stack.last }
    /// Sees every stack change and visit, as automation events.
    var report: (@MainActor (AutomationEvent) -> Void)?
    /// The native screen for a visit to a URL, when the path configuration names one and a plugin builds it
    /// (set by the session); `nil`: the visit is a web page.
    var nativeScreen: (@MainActor (_ url: String) -> NativeScreen?)?
    /// The path configuration in force (set by the session).
    var pathConfiguration: PathConfigurationStore?

    /// The path configuration's properties for a visit to `url`.
    func properties(for url: String) -> PathProperties {
        pathConfiguration?.current.properties(for: url) ?? PathConfiguration().properties(for: url)
    }

    /// The window this stack is shown in.
    let window: BrowserWindow
    /// "main", or "modal" for the stack of a modal window.
    let stackName: String
    /// The main stack, for a modal's.
    private(set) weak var parent: Navigator?
    /// The modal presented over this (main) stack, if any.
    private(set) var modal: Navigator?
    /// Builds a modal's window and stack for a visit to `url` and shows it (set by the session, which wires
    /// the new window as it wired the main one); `nil` when it cannot.
    var makeModal: (@MainActor (_ url: String, _ properties: PathProperties) -> Navigator?)?
    private let originPolicy: OriginPolicy
    private let logger: Logger
    private(set) var registrations: [ComponentRegistration]
    private var nextNumber = 1
    private var documents = 0
    /// The next commit is the top screen loading again (a failed or invalidated Turbo visit turned into a
    /// full load), not a new visit.
    private var adoptNextCommit = false
    /// After popping back to a screen for a visit to its URL, refresh it once its restore visit completes.
    private var refreshAfterRestore: String?
    /// The next commit starts a new stack (`navigate`: the address bar's "go").
    private var startOverOnNextCommit = false

    init(
        window: BrowserWindow, registrations: [ComponentRegistration], originPolicy: OriginPolicy, logger: Logger,
        stackName: String = "main"
    ) {
        self.window = window
        self.stackName = stackName
        self.registrations = registrations
        self.originPolicy = originPolicy
        self.logger = logger
    }

    // MARK: Stack changes

    private func makeScreen(url: String) -> Screen {
        defer { nextNumber += 1 }
        return Screen(
            number: nextNumber, url: url, registrations: registrations, controls: window.makeScreenControls(),
            logger: logger)
    }

    private func push(_ screen: Screen, action: String) {
        top?.disappear()
        stack.append(screen)
        screen.appear(bridge: window.bridge)
        changed(.screenPushed, screen, action)
    }

    private func replaceTop(with screen: Screen, action: String) {
        if let old = stack.popLast() {
            old.disappear()
            old.destroy()
        }
        stack.append(screen)
        screen.appear(bridge: window.bridge)
        changed(.screenReplaced, screen, action)
    }

    /// Pops every screen above `index`; the screen at `index` comes back as it was.
    private func pop(to index: Int, action: String) {
        guard index < stack.count - 1 else { return }
        let revealed = stack[index]
        while stack.count > index + 1 {
            let screen = stack.removeLast()
            if screen.controls.isShown { screen.disappear() }
            screen.destroy()
            logger.debug("screen \(screen.number) (\(screen.url)) popped")
        }
        revealed.appear(bridge: window.bridge)
        changed(.screenPopped, revealed, action)
    }

    private func changed(_ kind: AutomationEvent.Name, _ screen: Screen, _ action: String) {
        window.setBackButtonVisible(stack.count > 1)
        showContent()
        let report = ScreenReport(
            url: screen.url, title: screen.title, depth: stack.count, action: action, stack: stackName,
            view: screen.native?.name)
        switch kind {
        case .screenPushed: self.report?(.screenPushed(report))
        case .screenReplaced: self.report?(.screenReplaced(report))
        default: self.report?(.screenPopped(report))
        }
    }

    /// The screen whose history entry is shown now, if it is below the top: a history traversal (Back, or
    /// the page's own `history.back()`) landed on it.
    private func syncToHistory(action: String) {
        guard stack.count > 1, let item = window.currentHistoryItem,
            let index = stack.dropLast().lastIndex(where: { $0.historyItem == item })
        else { return }
        pop(to: index, action: action)
    }

    /// Shows what the top screen shows: its page, or its error screen.
    private func showContent() {
        if let error = top?.error {
            window.show(.error(error))
        } else if let top, let native = top.native {
            window.show(.native(name: "native-\(top.number)"), native: native.widget, title: top.title)
        } else {
            window.show(.web)
        }
    }

    /// Pushes a plugin's native screen for a visit to `url` (the web view stays as it is underneath).
    private func push(native: NativeScreen, url: String) {
        let screen = makeScreen(url: url)
        screen.native = native
        screen.title = properties(for: url).title ?? ""
        let key = "native-\(screen.number)"
        screen.releaseNative = { [window] in window.removeNative(name: key) }
        logger.info("\(url) is native screen \"\(native.name)\" of plugin \(native.pluginID)")
        push(screen, action: "advance")
    }

    // MARK: Full page loads

    /// A document was committed: a new visit, a reload, or a back/forward load.
    func pageCommitted(url: String) {
        let item = window.currentHistoryItem
        startOverIfAsked()
        guard let top else {
            let root = makeScreen(url: url)
            root.historyItem = item
            push(root, action: "load")
            return
        }
        if adoptNextCommit || top.historyItem == nil {
            // The top screen's own visit became a full load (or its Turbo visit never reached history, or
            // it is the error screen of a visit that failed and this is its retry).
            adoptNextCommit = false
            top.historyItem = item
            top.url = url
            top.hasTurbo = false
            clearError(of: top)
            return
        }
        if let item, let index = stack.lastIndex(where: { $0.historyItem == item }) {
            if index == stack.count - 1 {
                top.url = url  // a reload: the document is new; "ready" renews the components
                top.hasTurbo = false
                clearError(of: top)
            } else {
                pop(to: index, action: "back")
                stack[index].hasTurbo = false
                // Restored from the back/forward cache: the page's components never reconnect on their
                // own, so ask them to (hotwire-native-bridge listens for "native:restore").
                window.evaluate("window.__stradaTurbo && window.__stradaTurbo.restored()")
            }
            return
        }
        let screen = makeScreen(url: url)
        screen.historyItem = item
        if let topItem = top.historyItem, !window.historyContains(topItem) {
            replaceTop(with: screen, action: "replace")
        } else {
            push(screen, action: "advance")
        }
    }

    /// A load failed before anything was shown (no connection, DNS, TLS): the visit's screen shows the
    /// error screen. The screen is the top one when it was waiting for this load (a failed Turbo visit
    /// loaded as a page, a retry, the start page); otherwise a new screen, outside the web view's history,
    /// that Back simply removes.
    func loadFailed(_ error: VisitError) {
        let scheme = Route.scheme(of: error.url)
        if scheme == "http" || scheme == "https", !originPolicy.allows(error.url),
            let requested = window.requestedURL, !URLMatching.samePage(error.url, requested)
        {
            // A page of another origin the app could not reach: it was never the app's; the browser shows it
            // (and says why it cannot either).
            _ = route(.response(url: error.url))
            return
        }
        startOverIfAsked()
        if let top, adoptNextCommit || top.historyItem == nil {
            // Its next commit, if one comes, is still its own (Retry).
            adoptNextCommit = true
            showError(error, on: top)
            return
        }
        let screen = makeScreen(url: error.url)
        push(screen, action: top == nil ? "load" : "advance")
        showError(error, on: screen)
    }

    /// The document just committed is an HTTP error page (4xx, 5xx) of the app: its screen shows the error
    /// screen instead.
    func httpError(_ error: VisitError) {
        guard let top else { return }
        showError(error, on: top)
    }

    private func showError(_ error: VisitError, on screen: Screen) {
        screen.error = error
        report?(.visitFailed(url: error.url, statusCode: error.statusCode, error: error.detail))
        report?(
            .screenError(url: error.url, statusCode: error.statusCode, title: error.title, message: error.message))
        if screen === top { showContent() }
    }

    private func clearError(of screen: Screen) {
        guard screen.error != nil else { return }
        screen.error = nil
        if screen === top { showContent() }
    }

    /// Retry on the error screen shown: its visit runs again as a full load into the same screen. `false`
    /// when no error screen is shown.
    func retry() -> Bool {
        guard let top, let error = top.error else { return false }
        logger.info("retrying \(error.url)")
        adoptNextCommit = true
        window.load(url: error.url)
        return true
    }

    /// Refresh (Ctrl+R, F5, the `reload` command): the screen shown loads again; on an error screen, its
    /// visit is retried.
    func refresh() {
        if retry() { return }
        window.reload()
    }

    /// Where a navigation goes (WebKit asks before loading it): `true` when it was taken elsewhere.
    func route(_ request: RouteRequest) -> Bool {
        let route = Route.decide(
            request, policy: originPolicy, hostRequested: window.requestedURL, shown: window.committedURL)
        if case .navigation(let url, _) = request, originPolicy.allows(url), top != nil,
            let native = nativeScreen?(url)
        {
            // A link or form of a page without Turbo, to a URL the path configuration makes a native screen.
            push(native: native, url: url)
            return true
        }
        switch route {
        case .app:
            return false
        case .visit(let url):
            logger.debug("\(url) asked for a new window: visited in the app")
            DispatchQueue.main.async { [weak self] in self?.visit(url, action: "advance") }
        case .browser(let url):
            logger.info("\(url) is not from an allowed origin: opened in the browser")
            window.openInBrowser(url)
            if adoptNextCommit, top?.historyItem == nil || top?.error != nil {
                // The top screen was waiting for this document (a Turbo visit redirected out of the app).
                adoptNextCommit = false
                DispatchQueue.main.async { [weak self] in _ = self?.back() }
            }
        case .system(let url):
            logger.info("\(url) opened with the system's handler")
            window.openWithSystem(url)
        case .ignored:
            logger.info("a request for a new window without an address was ignored (the app has one window)")
        }
        return true
    }

    /// `navigate` asked for a new stack: every screen goes (at the commit, or the failure, of its load).
    private func startOverIfAsked() {
        guard startOverOnNextCommit else { return }
        startOverOnNextCommit = false
        top?.disappear()
        for screen in stack.reversed() { screen.destroy() }
        stack.removeAll()
    }

    /// The page's bridge adapter said "ready": a document with its scripts freshly run. If the top screen's
    /// components talked to another document, they are replaced by new ones first, so a reply can never
    /// reach a document other than the one that sent the message.
    func bridgeReady() {
        documents += 1
        guard let top else { return }
        if let document = top.document, document != documents {
            logger.debug("screen \(top.number) (\(top.url)) has a new document: new component instances")
            top.resetComponents(bridge: window.bridge)
        }
        top.document = documents
    }

    /// The URL changed within the document: a history traversal may have landed on a screen below.
    func locationChanged() {
        syncToHistory(action: "back")
    }

    func titleChanged(_ title: String) {
        guard top?.native == nil else { return }  // the page underneath a native screen
        top?.title = title
    }

    // MARK: Turbo

    /// A message from the page's Turbo adapter.
    func turbo(_ message: JSON) {
        func string(_ key: String) -> String? { message[key]?.stringValue }
        switch string("turbo") {
        case "ready":
            guard let top else { return }
            top.hasTurbo = true
            top.restorationIdentifier = string("restorationIdentifier")
            if top.historyItem == nil { top.historyItem = window.currentHistoryItem }
            report?(.turboReady(url: string("location") ?? top.url, version: string("turboVersion") ?? "?"))
        case "visitProposed":
            guard case .number(let number)? = message["proposal"], let location = string("location") else { return }
            proposed(Int(number), location: location, action: string("action") ?? "advance")
        case "visitStarted":
            if string("action") == "restore" {
                syncToHistory(action: "restore")
                if let id = string("restorationIdentifier"), stack.count > 1,
                    let index = stack.dropLast().lastIndex(where: { $0.restorationIdentifier == id })
                {
                    pop(to: index, action: "restore")
                }
            } else if let screen = screenAwaiting(string("location")) {
                // The visit the screen was pushed (or replaced) for: later messages about it name it, and a
                // restore finds the screen by its history entry's restoration identifier — even when Turbo
                // cancels the visit before it completes (the next visit started first). Matched by location:
                // when visits follow fast, the next screen may already be on top when this one starts.
                screen.visitIdentifier = string("identifier")
                screen.restorationIdentifier = string("restorationIdentifier") ?? screen.restorationIdentifier
            }
        case "visitCompleted":
            // The screen whose visit this is: the top one, unless another visit was pushed meanwhile (its
            // completion is reported after a repaint, so it can arrive after the next visit started).
            let identifier = string("identifier")
            guard let screen = stack.last(where: { identifier != nil && $0.visitIdentifier == identifier }) ?? top
            else { return }
            if let location = string("location") { screen.url = location }
            if let title = string("title") { screen.title = title }
            screen.restorationIdentifier = string("restorationIdentifier") ?? screen.restorationIdentifier
            report?(.visitCompleted(url: screen.url, title: screen.title))
            guard let top, screen === top else { return }  // history has moved on: restore finds it by identifier
            top.historyItem = window.currentHistoryItem
            if let refresh = refreshAfterRestore, URLMatching.samePage(refresh, top.url) {
                refreshAfterRestore = nil
                replaceTopAndVisit(top.url, reason: "refresh")
            }
        case "visitRequestFailed":
            let location = string("location") ?? top?.url ?? ""
            var status = 0
            if case .number(let code)? = message["statusCode"] { status = Int(code) }
            logger.warning("the visit to \(location) failed (status \(status)); loading it as a page")
            report?(.visitFailed(url: location, statusCode: status, error: "loaded as a full page instead"))
            adoptNextCommit = true
            window.load(url: location)
        case "pageInvalidated":
            guard let location = string("location") else { return }
            logger.info(
                "Turbo cannot render \(location) in place (\(string("reason") ?? "page invalidated")); loading it")
            adoptNextCommit = true
            window.load(url: location)
        default:
            break
        }
    }

    /// Turbo proposed a visit: decide what it means for the stack, as Hotwire Native's navigator does.
    private func proposed(_ proposal: Int, location: String, action proposedAction: String) {
        let properties = properties(for: location)
        report?(.visitProposed(url: location, action: proposedAction, properties: properties.raw))
        decide(
            location, action: proposedAction, properties: properties,
            run: { [window] action in
                window.evaluate("window.__stradaTurbo.visitProposal(\(proposal), \(JSON.string(action).serialized()))")
            },
            discard: { [window] in window.evaluate("window.__stradaTurbo.discardProposal(\(proposal))") })
    }

    /// A visit a modal handed to the main stack (its rules say `context: default`): decided as if proposed
    /// here, and started by the main page's Turbo (or loaded, without it).
    func visitFromModal(_ location: String, action: String, properties: PathProperties) {
        decide(
            location, action: action, properties: properties,
            run: { [weak self] action in
                guard let self, let top = self.top else { return }
                if top.hasTurbo {
                    let arguments = "\(JSON.string(location).serialized()), \(JSON.string(action).serialized())"
                    self.window.evaluate("window.__stradaTurbo.visit(\(arguments))")
                } else {
                    self.adoptNextCommit = true
                    self.window.load(url: location)
                }
            }, discard: {})
    }

    /// What a visit does, as Hotwire Native's navigator decides it: the context (a modal, or the main stack),
    /// the presentation, the screen shown and the one below. `run(action)` starts the visit in the page,
    /// `discard()` drops it (native did what it meant).
    private func decide(
        _ location: String, action proposedAction: String, properties: PathProperties,
        run: @escaping @MainActor (String) -> Void, discard: @escaping @MainActor () -> Void
    ) {
        if properties.isHistoricalLocation {
            // turbo-rails' recede / resume / refresh routes: never shown as pages.
            discard()
            switch properties.presentation {
            case .pop:
                if stackName == "modal" && stack.count <= 1 {
                    parent?.dismissModal(reason: "recede")
                } else {
                    _ = back()
                }
            case .refresh:
                if stackName == "modal", let parent {
                    parent.dismissModal(reason: "refresh")
                    parent.refreshTop()
                } else {
                    refreshTop()
                }
            default: break
            }
            return
        }
        guard originPolicy.allows(location) else {
            discard()
            logger.info("\(location) is not from an allowed origin: opened in the browser")
            window.openInBrowser(location)
            return
        }
        if stackName == "main", properties.context == .modal {
            discard()
            presentModal(location, properties: properties)
            return
        }
        if stackName == "modal", let parent {
            // A visit for the main stack leaves the modal: dismissed first, then the main stack acts.
            let leaves: Bool =
                switch properties.presentation {
                case .clearAll, .replaceRoot: true
                case .pop, .refresh: stack.count <= 1
                default: properties.context == .default
                }
            if leaves {
                discard()
                parent.dismissModal(
                    reason: properties.presentation == .default ? "visit" : properties.presentation.rawValue)
                switch properties.presentation {
                case .pop: break  // popping the modal's only screen is dismissing it
                case .refresh: parent.refreshTop()
                default: parent.visitFromModal(location, action: proposedAction, properties: properties)
                }
                return
            }
        }
        guard let top else { return }
        if let native = nativeScreen?(location) {
            discard()
            push(native: native, url: location)
            return
        }
        switch properties.presentation {
        case .none:
            discard()
            return
        case .pop:
            discard()
            _ = back()
            return
        case .refresh:
            // Pop, then refresh the screen revealed (on the first screen: refresh it).
            discard()
            if stack.count > 1 {
                refreshAfterRestore = stack[stack.count - 2].url
                _ = back()
            } else {
                refreshTop()
            }
            return
        case .clearAll:
            // Back to the first screen, refreshed; the proposal itself is not visited.
            discard()
            if stack.count > 1 {
                refreshAfterRestore = stack[0].url
                window.goBack(to: stack[0].historyItem)
            } else {
                refreshTop()
            }
            return
        case .replaceRoot:
            // The proposal becomes the only screen.
            let screen = makeScreen(url: location)
            screen.hasTurbo = true
            screen.document = top.document
            top.disappear()
            for old in stack.reversed() { old.destroy() }
            stack.removeAll()
            push(screen, action: "replace_root")
            run("replace")
            return
        case .replace, .push, .default:
            break
        }
        var action = proposedAction == "replace" ? "replace" : "advance"
        let ignoringQuery = properties.queryStringPresentation == .replace
        if properties.presentation == .replace {
            action = "replace"
        } else if properties.presentation == .push {
            action = "advance"
        } else if Self.samePage(location, top.url, ignoringQuery: ignoringQuery) {
            action = "replace"  // a visit to the screen shown replaces it
        } else if stack.count > 1, Self.samePage(location, stack[stack.count - 2].url, ignoringQuery: ignoringQuery) {
            // A visit to the screen below (e.g. a form redirected back to where it came from): pop to it,
            // then refresh it, so what it shows is current.
            discard()
            refreshAfterRestore = location
            _ = back()
            return
        }
        let screen = makeScreen(url: location)
        screen.hasTurbo = top.hasTurbo
        screen.document = top.document
        if action == "replace" {
            replaceTop(with: screen, action: "replace")
        } else {
            push(screen, action: "advance")
        }
        run(action)
    }

    /// Refreshes the screen shown with a fresh visit of its URL.
    func refreshTop() {
        guard let top else { return }
        replaceTopAndVisit(top.url, reason: "refresh")
    }

    // MARK: Modals

    /// Presents a modal for a visit to `location` (its own window, web view and stack over this one).
    private func presentModal(_ location: String, properties: PathProperties) {
        if modal != nil { dismissModal(reason: "replaced") }
        guard let modal = makeModal?(location, properties) else {
            logger.error("a modal for \(location) could not be presented; visiting it on the main stack")
            visitFromModal(location, action: "advance", properties: PathProperties())
            return
        }
        modal.parent = self
        self.modal = modal
        window.presentedModal = modal.window
    }

    /// Dismisses the modal: its screens and components go, its window closes; the main screen underneath,
    /// live all along, is shown as it was. `false` when no modal is presented.
    @discardableResult
    func dismissModal(reason: String) -> Bool {
        guard let modal else { return false }
        self.modal = nil
        window.presentedModal = nil
        modal.tearDown()
        modal.window.destroy()
        report?(.modalDismissed(reason: reason))
        return true
    }

    /// The screen waiting for its Turbo visit to start at `location` (the newest such), or the top one when
    /// the location is not known.
    private func screenAwaiting(_ location: String?) -> Screen? {
        guard let location else { return top?.visitIdentifier == nil ? top : nil }
        return stack.last { $0.visitIdentifier == nil && URLMatching.samePage($0.url, location) }
    }

    /// Whether two URLs are the same screen; with `query_string_presentation: replace`, whatever their queries.
    static func samePage(_ a: String, _ b: String, ignoringQuery: Bool) -> Bool {
        guard ignoringQuery else { return URLMatching.samePage(a, b) }
        func withoutQuery(_ url: String) -> String {
            String(url.prefix { $0 != "?" && $0 != "#" })
        }
        return URLMatching.samePage(withoutQuery(a), withoutQuery(b))
    }

    /// Replaces the top screen with a fresh one for `url` and has Turbo load it in place.
    private func replaceTopAndVisit(_ url: String, reason: String) {
        guard let top else { return }
        let screen = makeScreen(url: url)
        screen.hasTurbo = top.hasTurbo
        screen.document = top.document
        screen.historyItem = top.historyItem
        screen.restorationIdentifier = top.restorationIdentifier
        replaceTop(with: screen, action: reason)
        if screen.hasTurbo {
            window.evaluate("window.__stradaTurbo.visit(\(JSON.string(url).serialized()), \"replace\")")
        } else {
            window.reload()
        }
    }

    // MARK: What the window reports

    /// Handles what the window reports about navigation: loads, Turbo, Back, refresh, retry, failures, and
    /// a modal's request to be dismissed. `false` for what the session handles (closing, crashes).
    @discardableResult
    func handle(_ event: PageEvent) -> Bool {
        switch event {
        case .committed(let url, _): pageCommitted(url: url)
        case .locationChanged: locationChanged()
        case .titleChanged(let title): titleChanged(title)
        case .turbo(let message): turbo(message)
        case .backRequested: _ = back()
        case .loadFailed(let error): loadFailed(error)
        case .httpError(let error): httpError(error)
        case .retryRequested: _ = retry()
        case .refreshRequested: refresh()
        case .dismissRequested: parent?.dismissModal(reason: "cancel")
        case .finished, .closeRequestedByPage, .windowClosed, .webProcessTerminated, .permissionRequested,
            .notification:
            return false
        }
        return true
    }

    // MARK: What the user and the automation channel ask for

    /// Back: to the previous screen's history entry. The screen pops when the page gets there (a Turbo
    /// restoration visit, or a back/forward load). `false` when there is no screen to go back to.
    func back() -> Bool {
        if stackName == "modal", stack.count <= 1, let parent { return parent.dismissModal(reason: "back") }
        guard stack.count > 1 else { return false }
        let previous = stack[stack.count - 2]
        if let item = previous.historyItem, item == window.currentHistoryItem {
            // The top screen never reached the web view's history (an error screen of a load that failed):
            // the page below is already shown.
            adoptNextCommit = false
            pop(to: stack.count - 2, action: "back")
            return true
        }
        window.goBack(to: previous.historyItem)
        return true
    }

    /// Visits `url` as a link would: with Turbo, a Turbo visit ("advance" pushes, "replace" replaces);
    /// without it, a full load.
    func visit(_ url: String, action: String) {
        if top != nil, let native = nativeScreen?(url) {
            push(native: native, url: url)
            return
        }
        guard let top, top.hasTurbo, originPolicy.allows(url) else {
            if action == "replace" {
                window.evaluate("location.replace(\(JSON.string(url).serialized()))")
            } else {
                window.load(url: url)
            }
            return
        }
        let screen = makeScreen(url: url)
        screen.hasTurbo = true
        screen.document = top.document
        if action == "replace" { replaceTop(with: screen, action: action) } else { push(screen, action: action) }
        window.evaluate(
            "window.__stradaTurbo.visit(\(JSON.string(url).serialized()), \(JSON.string(action).serialized()))")
    }

    /// Loads `url` as the root of a new stack (every screen goes), as typing an address would.
    func navigate(_ url: String) {
        startOverOnNextCommit = true
        window.load(url: url)
    }

    /// Hot reload: screens created from now on use `registrations`; live instances of `names` are replaced.
    /// Returns the names that had an instance on the top screen.
    func reloadComponents(named names: [String], registrations: [ComponentRegistration]) -> [String] {
        self.registrations = registrations
        _ = modal?.reloadComponents(named: names, registrations: registrations)
        var reloaded: [String] = []
        for screen in stack {
            let done = screen.reload(components: names, registrations: registrations)
            if screen === top { reloaded = done }
        }
        return reloaded
    }

    /// A plugin is gone: every screen's instances of `names` are destroyed.
    func destroyComponents(named names: [String], registrations: [ComponentRegistration]) {
        self.registrations = registrations
        modal?.destroyComponents(named: names, registrations: registrations)
        for screen in stack { screen.destroy(components: names, registrations: registrations) }
    }

    /// The host is stopping: the top screen disappears, every screen's controls and components go.
    func tearDown() {
        if let modal {
            self.modal = nil
            window.presentedModal = nil
            modal.tearDown()
            modal.window.destroy()
        }
        top?.disappear()
        for screen in stack.reversed() { screen.destroy() }
        stack.removeAll()
    }
}
