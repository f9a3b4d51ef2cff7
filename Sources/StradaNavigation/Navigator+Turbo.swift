import StradaCore

/// What the page's Turbo adapter reports, decoded once (``TurboEvent``), and what the navigator does with it.
extension Navigator {
    /// A message from the page's Turbo adapter.
    package func turbo(_ event: TurboEvent) {
        switch event {
        case .ready(let location, let restorationIdentifier, let version):
            guard let top else { return }
            top.hasTurbo = true
            top.restorationIdentifier = restorationIdentifier
            if top.historyItem == nil { top.historyItem = window.currentHistoryEntry }
            report?(.turboReady(url: location ?? top.url, version: version))
        case .visitProposed(let proposal):
            proposed(proposal)
        case .refreshing(let location):
            // The adapter refreshes the page shown itself, as upstream's adapters do: the screen, its
            // components and its controls stay (a morph keeps the page's controllers connected).
            logger.debug("Turbo refreshes \(location) in place")
        case .frameVisitStarting(let location, let action):
            frameVisitStarting(location, action: action)
        case .visitStarted(let identifier, let location, let action, let restorationIdentifier):
            if action == .restore {
                restoreStarted(location: location, restorationIdentifier: restorationIdentifier)
            } else if let screen = screenAwaiting(location) {
                // The visit the screen was pushed (or replaced) for: later messages about it name it, and a
                // restore finds the screen by its history entry's restoration identifier — even when Turbo
                // cancels the visit before it completes (the next visit started first). Matched by location:
                // when visits follow fast, the next screen may already be on top when this one starts.
                screen.visitIdentifier = identifier
                screen.restorationIdentifier = restorationIdentifier ?? screen.restorationIdentifier
            }
        case .visitRequestFailed(let identifier, let location, let statusCode):
            visitRequestFailed(identifier: identifier, location: location, statusCode: statusCode)
        case .visitRendered:
            break
        case .visitCompleted(let identifier, let location, let restorationIdentifier, let title):
            visitCompleted(
                identifier: identifier, location: location, restorationIdentifier: restorationIdentifier, title: title)
        case .pageInvalidated(let location, let reason):
            let location = location ?? top?.url ?? ""
            logger.info("Turbo cannot render \(location) in place (\(reason ?? "page invalidated")); loading it")
            pending = .coldLoad
            window.load(url: location)
        case .formSubmissionStarted, .formSubmissionFinished:
            break
        }
    }

    /// The screen waiting for its Turbo visit to start at `location` (the newest such), or the top one when
    /// the location is not known.
    func screenAwaiting(_ location: String?) -> Screen? {
        guard let location else { return top?.visitIdentifier == nil ? top : nil }
        return stack.last { $0.visitIdentifier == nil && URLMatching.samePage($0.url, location) }
    }

    /// A Turbo restoration visit (Back, Forward, the page's `history.go`): the screen holding the history
    /// entry (or restoration identifier) comes back; an entry no screen holds — going forward again to a
    /// screen that was popped — is a new screen.
    func restoreStarted(location: String, restorationIdentifier: String?) {
        guard let top else { return }
        let entry = window.currentHistoryEntry
        let below = stack.dropLast()
        if let index = below.lastIndex(where: { same($0.historyItem, entry) }) {
            pop(to: index, action: "restore")
            return
        }
        if same(top.historyItem, entry) { return }
        if let restorationIdentifier {
            if let index = below.lastIndex(where: { $0.restorationIdentifier == restorationIdentifier }) {
                pop(to: index, action: "restore")
                return
            }
            // The top screen's own entry, before its visit completed and recorded it.
            if top.restorationIdentifier == restorationIdentifier, top.historyItem == nil { return }
        }
        let screen = makeScreen(url: location, after: top)
        screen.restorationIdentifier = restorationIdentifier
        push(screen, action: "restore")
    }

    /// A frame that advances history is about to render: its screen comes first, so the components of the
    /// frame's new content connect to it rather than to the screen it covers.
    func frameVisitStarting(_ location: String, action: VisitAction) {
        guard let top, top.hasTurbo, top.frameVisit != .awaited || !URLMatching.samePage(top.url, location) else {
            return
        }
        if action == .replace {
            // The screen shown takes the frame's URL in place: the page around the frame is the same document
            // with the same components, so nothing outside the frame goes away and comes back (the flash of
            // hotwire-native-ios #53, links in a replace frame that differ only in a query).
            replaceInPlace(url: location)
            top.frameVisit = .awaited
            return
        }
        let screen = makeScreen(url: location, after: top)
        screen.frameVisit = .awaited
        push(screen, action: "advance")
    }

    /// The proposal of a frame's visit, after the frame rendered (it only records history): it runs on the
    /// frame's screen, and every component of the page connects to that screen again.
    func frameProposed(_ proposal: VisitProposal) {
        guard let top else { return }
        if top.frameVisit == .awaited {
            top.url = proposal.location  // where the frame's content came from, after any redirect
        } else {
            // No notice came before the render (the frame's action was not known then): the screen now.
            frameVisitStarting(proposal.location, action: proposal.action)
        }
        self.top?.frameVisit = .proposed
        window.perform(.visitProposal(proposal.number, proposal.action))
        window.perform(.restored)
    }

    func visitRequestFailed(identifier: String?, location: String?, statusCode: Int) {
        let screen =
            stack.last { identifier != nil && $0.visitIdentifier == identifier } ?? screenAwaiting(location) ?? top
        guard let screen else { return }
        let url = location ?? screen.url
        if statusCode >= 400 {
            // As upstream: the visit's screen shows the error screen; the screen below stays, and so does
            // the page underneath (nothing was rendered). Retry loads the visit in full.
            logger.warning("the visit to \(url) failed: HTTP \(statusCode)")
            showError(VisitError(url: url, statusCode: statusCode, detail: "HTTP \(statusCode)"), on: screen)
            return
        }
        // No response (a network failure, a redirect to another origin, a timeout, not HTML): the visit loads
        // in full, and the engine's load tells which (an error screen, or the browser for another origin).
        logger.warning("the visit to \(url) got no response (status \(statusCode)); loading it as a page")
        report?(.visitFailed(url: url, statusCode: statusCode, error: "loaded as a full page instead"))
        pending = .coldLoad
        window.load(url: url)
    }

    func visitCompleted(identifier: String?, location: String?, restorationIdentifier: String?, title: String?) {
        // The screen whose visit this is: the top one, unless another visit was pushed meanwhile (its
        // completion is reported after a repaint, so it can arrive after the next visit started).
        let own = stack.last { identifier != nil && $0.visitIdentifier == identifier }
        if own == nil, let location, let top, top.visitIdentifier == nil, !URLMatching.samePage(location, top.url) {
            // A completion no screen's visit started (a restore's, reported after a repaint) for another URL, after
            // a new screen was pushed whose own visit has not started yet: it is not that screen's. Taking it would
            // give the new screen the old page's URL and title (seen: a `refresh` then reloaded the wrong page).
            logger.debug("a late visit completion for \(location) is not the new screen's (\(top.url))")
            return
        }
        guard let screen = own ?? top else { return }
        if let location { screen.url = location }
        if let title, !title.isEmpty {
            screen.title = title
            if screen === top, screen.error == nil, screen.native == nil { window.showTitle(title) }
        }
        screen.restorationIdentifier = restorationIdentifier ?? screen.restorationIdentifier
        report?(.visitCompleted(url: screen.url, title: screen.title))
        guard let top, screen === top else { return }  // history has moved on: restore finds it by identifier
        // The entry the screen's own visit made. A restore's or a refresh's completion may come after the
        // next traversal already moved history on: the screen keeps the entry it has.
        if own != nil || top.historyItem == nil { top.historyItem = window.currentHistoryEntry ?? top.historyItem }
        if top.frameVisit == .proposed { top.frameVisit = nil }
        if top.backAfterVisit, top.frameVisit != .awaited {
            top.backAfterVisit = false
            back()
            return
        }
        if case .afterPop(let url, let then) = pending, URLMatching.samePage(url, top.url) {
            pending = .none
            switch then {
            case .refresh: refreshInPlace()
            case .proposal(let number): window.perform(.visitProposal(number, .replace))
            }
        }
    }
}
