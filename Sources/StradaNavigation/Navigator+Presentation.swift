import StradaCore

/// What a visit does to the stacks, decided as Hotwire Native decides it (iOS `NavigationHierarchyController`,
/// Android `NavigatorRule`): the context (a modal, or the main stack), the presentation, the screen shown and
/// the one below. Each presentation changes the stack in one place.
extension Navigator {
    /// How a decided visit starts in the page: a kept proposal (Turbo proposed it), or a fresh visit (the
    /// `visit` command, a menu item, a link for a new window, or a modal handing it to the main stack).
    enum VisitStart {
        case proposal(Int)
        case fresh(String)
    }

    /// Turbo proposed a visit.
    func proposed(_ proposal: VisitProposal) {
        let properties = properties(for: proposal.location)
        report?(.visitProposed(url: proposal.location, action: proposal.action.rawValue, properties: properties.raw))
        if proposal.frame {
            frameProposed(proposal)
        } else if !proposal.willRender {
            // The page shown is the visit's already (Turbo 8 following a redirect): it only records history;
            // the screen stays, with the URL the user sees.
            if proposal.action == .replace, let top { top.url = proposal.location }
            window.perform(.visitProposal(proposal.number, proposal.action))
        } else {
            decide(
                proposal.location, action: proposal.action, properties: properties, start: .proposal(proposal.number))
        }
    }

    /// A visit a modal handed to the main stack (its rules say `context: default`): decided as if proposed
    /// here, started by the main page's Turbo (or loaded, without it). As upstream, a different URL pushes.
    package func visitFromModal(_ location: String, properties: PathProperties) {
        decide(location, action: .advance, properties: properties, start: .fresh(location))
    }

    func run(_ start: VisitStart, action: VisitAction) {
        switch start {
        case .proposal(let number):
            window.perform(.visitProposal(number, action))
        case .fresh(let location):
            guard top?.hasTurbo != true else { return window.perform(.visit(location, action)) }
            pending = .coldLoad
            if action == .replace {
                // The page's own location.replace: the replaced document leaves history, as the screen does.
                window.perform(.replaceLocation(location))
            } else {
                window.load(url: location)
            }
        }
    }

    func discard(_ start: VisitStart) {
        if case .proposal(let number) = start { window.perform(.discardProposal(number)) }
    }

    func decide(_ location: String, action: VisitAction, properties: PathProperties, start: VisitStart) {
        if properties.isHistoricalLocation {
            discard(start)
            historicalLocation(properties.presentation)
            return
        }
        guard originPolicy.allows(location) else {
            discard(start)
            logger.info("\(location) is not from an allowed origin: opened in the browser")
            window.openInBrowser(location)
            return
        }
        if kind == .main, properties.context == .modal {
            discard(start)
            presentModal(location, properties: properties)
            return
        }
        if kind == .modal, let parent, leavesModal(properties) {
            // A visit for the main stack leaves the modal: dismissed first, then the main stack acts.
            discard(start)
            parent.dismissModal(
                reason: properties.presentation == .default ? "visit" : properties.presentation.rawValue)
            switch properties.presentation {
            case .pop: break  // popping the modal's only screen is dismissing it
            case .refresh: parent.refreshInPlace()
            default: parent.visitFromModal(location, properties: properties)
            }
            return
        }
        guard let top else { return }
        if let native = nativeScreen?(location) {
            discard(start)
            push(native: native, url: location)
            return
        }
        switch properties.presentation {
        case .none:
            discard(start)
        case .pop:
            discard(start)
            back()
        case .refresh:
            discard(start)
            popThenRefresh(to: stack.count - 2)
        case .clearAll:
            // Back to the first screen, refreshed; the proposal itself is not visited.
            discard(start)
            popThenRefresh(to: 0)
        case .replaceRoot:
            // The proposal becomes the only screen.
            let screen = makeScreen(url: location, after: top)
            screen.hasTurbo = true
            startOver()
            push(screen, action: "replace_root")
            run(start, action: .replace)
        case .replace, .push, .default:
            pushOrReplace(location, action: action, presentation: properties.presentation, properties, start)
        }
    }

    /// turbo-rails' recede / resume / refresh routes, never shown as pages. From a modal, the modal is
    /// dismissed first (whatever its depth), then the main stack acts: recede pops, resume does nothing
    /// more, refresh refreshes the main stack's top in place.
    func historicalLocation(_ presentation: PathProperties.Presentation) {
        var main = self
        if kind == .modal, let parent {
            parent.dismissModal(reason: presentation == .none ? "resume" : presentation.rawValue)
            main = parent
        }
        switch presentation {
        case .pop: main.back()
        case .refresh: main.refreshInPlace()
        default: break
        }
    }

    /// Whether a visit decided in a modal belongs to the main stack.
    private func leavesModal(_ properties: PathProperties) -> Bool {
        switch properties.presentation {
        case .clearAll, .replaceRoot: true
        case .pop, .refresh: stack.count <= 1
        case .none: false
        default: properties.context == .default
        }
    }

    /// Pops to the screen at `index` and refreshes it once it is shown (on the first screen: refreshes it).
    private func popThenRefresh(to index: Int) {
        guard index >= 0, stack.count > 1 else {
            refreshInPlace()
            return
        }
        pending = .afterPop(url: stack[index].url, then: .refresh)
        if index == stack.count - 2 {
            back()
        } else {
            window.goBack(to: stack[index].historyItem)
        }
    }

    /// `default`, `push` and `replace`: the URL shown refreshes in place, the URL of the screen below pops to
    /// it (and renders the proposal's response there), any other URL pushes (or replaces the top screen).
    private func pushOrReplace(
        _ location: String, action: VisitAction, presentation: PathProperties.Presentation,
        _ properties: PathProperties, _ start: VisitStart
    ) {
        guard let top else { return }
        let ignoringQuery = properties.queryStringPresentation == .replace
        let shown = Self.samePage(location, top.url, ignoringQuery: ignoringQuery)
        var action: VisitAction = action == .replace ? .replace : .advance
        if presentation == .replace {
            action = .replace
        } else if presentation == .push {
            action = .advance
        } else if shown, top.hasTurbo, top.error == nil, top.native == nil {
            // The URL shown: refreshed in place, the screen and its controls kept; only its query differs
            // (`query_string_presentation: replace`): the screen is replaced, as upstream's, in place.
            if !URLMatching.samePage(location, top.url) { replaceInPlace(url: location) }
            run(start, action: .replace)
            return
        } else if shown {
            action = .replace
        } else if stack.count > 1,
            Self.samePage(location, stack[stack.count - 2].url, ignoringQuery: ignoringQuery)
        {
            // The screen below (a form redirected back where it came from): pop to it, then show what the
            // visit brings there — the proposal's response, or a fresh load.
            switch start {
            case .proposal(let number): pending = .afterPop(url: location, then: .proposal(number))
            case .fresh: pending = .afterPop(url: location, then: .refresh)
            }
            back()
            return
        }
        let screen = makeScreen(url: location, after: top)
        if action == .replace {
            replaceTop(with: screen, action: "replace")
        } else {
            push(screen, action: "advance")
        }
        run(start, action: action)
    }

    /// `url` without its query and fragment.
    static func withoutQuery(_ url: String) -> String { String(url.prefix { $0 != "?" && $0 != "#" }) }

    /// Whether two URLs are the same screen; with `query_string_presentation: replace`, whatever their queries.
    static func samePage(_ a: String, _ b: String, ignoringQuery: Bool) -> Bool {
        guard ignoringQuery else { return URLMatching.samePage(a, b) }
        return URLMatching.samePage(withoutQuery(a), withoutQuery(b))
    }
}
