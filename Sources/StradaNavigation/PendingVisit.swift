/// What a navigator waits for, beyond the visit in progress: one state, set where the navigator asks the
/// page for something and cleared where the answer comes. A new request replaces the one before.
package enum PendingVisit: Equatable, Sendable {
    /// Nothing.
    case none
    /// `navigate`: the next commit (or load failure) starts a new stack.
    case startOver
    /// The next commit is the top screen's own visit loading in full — a Turbo visit that could not be
    /// rendered in place (no response, page invalidated), a Retry — not a new visit.
    case coldLoad
    /// Going back to the screen showing `url`; once it is shown, `then`.
    case afterPop(url: String, then: AfterPop)

    /// What to do once a pop reached its screen.
    package enum AfterPop: Equatable, Sendable {
        /// Refresh it in place (a `refresh` presentation, `clear_all`).
        case refresh
        /// Render the kept proposal there, as a replace visit: a form redirected back to the screen below
        /// shows the page its response holds (its flash message), never a stale snapshot.
        case proposal(Int)
    }

    /// The state's name, as the navigator's state table in docs/lifecycle.md lists it.
    package var name: String {
        switch self {
        case .none: "none"
        case .startOver: "startOver"
        case .coldLoad: "coldLoad"
        case .afterPop(_, .refresh): "afterPop(refresh)"
        case .afterPop(_, .proposal): "afterPop(proposal)"
        }
    }
}
