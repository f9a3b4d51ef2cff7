package import StradaCore

/// A message from the page's Turbo adapter (`SDK/web/turbo-adapter.js`), decoded once. The adapter's
/// comment documents each one; the navigator never reads the JSON itself.
package enum TurboEvent: Equatable, Sendable {
    /// Turbo registered our adapter in a new document.
    case ready(location: String?, restorationIdentifier: String?, version: String)
    /// Turbo proposed a visit: native decides and answers with `visitProposal` or `discardProposal`.
    case visitProposed(VisitProposal)
    /// The adapter refreshes the page shown in place (a visit to the URL shown: a form redirected back, a
    /// `Turbo.visit` of the current location): no proposal, the screen stays.
    case refreshing(location: String)
    /// A `<turbo-frame>` that advances history is about to render new content at `location`: its visit is
    /// proposed after the render, but the screen it makes must be there before the content's components
    /// connect.
    case frameVisitStarting(location: String, action: VisitAction)
    /// A visit started (one native asked for, or a history restore Turbo started on popstate).
    case visitStarted(identifier: String, location: String, action: VisitAction, restorationIdentifier: String?)
    /// The visit's request failed: HTTP status ≥ 400, or ≤ 0 (no response, a cross-origin redirect, a
    /// timeout, not HTML).
    case visitRequestFailed(identifier: String?, location: String?, statusCode: Int)
    /// The visit's page was rendered (after a repaint).
    case visitRendered(identifier: String)
    /// The visit completed (after a repaint); `location` is where it ended up.
    case visitCompleted(identifier: String?, location: String?, restorationIdentifier: String?, title: String?)
    /// Turbo cannot render in place: the page must load again in full.
    case pageInvalidated(location: String?, reason: String?)
    /// Form submissions (not acted on: reported by the adapter for completeness).
    case formSubmissionStarted, formSubmissionFinished

    /// Decodes a Turbo adapter message; `nil` for one the navigator does not know.
    package init?(_ message: JSON) {
        func string(_ key: String) -> String? { message[key]?.stringValue }
        func number(_ key: String) -> Int? {
            if case .number(let value)? = message[key], value.isFinite { return Int(value) }
            return nil
        }
        switch string("turbo") {
        case "ready":
            self = .ready(
                location: string("location"), restorationIdentifier: string("restorationIdentifier"),
                version: string("turboVersion") ?? "?")
        case "visitProposed":
            guard let proposal = number("proposal"), let location = string("location") else { return nil }
            self = .visitProposed(
                VisitProposal(
                    number: proposal, location: location, action: VisitAction(turbo: string("action")),
                    willRender: message["willRender"] != .bool(false), frame: message["frame"] == .bool(true)))
        case "refreshing":
            guard let location = string("location") else { return nil }
            self = .refreshing(location: location)
        case "frameVisitStarting":
            guard let location = string("location") else { return nil }
            self = .frameVisitStarting(location: location, action: VisitAction(turbo: string("action")))
        case "visitStarted":
            guard let identifier = string("identifier"), let location = string("location") else { return nil }
            self = .visitStarted(
                identifier: identifier, location: location, action: VisitAction(turbo: string("action")),
                restorationIdentifier: string("restorationIdentifier"))
        case "visitRequestFailed":
            self = .visitRequestFailed(
                identifier: string("identifier"), location: string("location"), statusCode: number("statusCode") ?? 0)
        case "visitRendered":
            guard let identifier = string("identifier") else { return nil }
            self = .visitRendered(identifier: identifier)
        case "visitCompleted":
            self = .visitCompleted(
                identifier: string("identifier"), location: string("location"),
                restorationIdentifier: string("restorationIdentifier"), title: string("title"))
        case "pageInvalidated":
            self = .pageInvalidated(location: string("location"), reason: string("reason"))
        case "formSubmissionStarted":
            self = .formSubmissionStarted
        case "formSubmissionFinished":
            self = .formSubmissionFinished
        default:
            return nil
        }
    }
}
