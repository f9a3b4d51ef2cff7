/// What a Turbo visit does to the page's history, as Turbo names it.
package enum VisitAction: String, Sendable, CaseIterable {
    /// A new history entry (a link, a form answered by a redirect).
    case advance
    /// The current history entry is replaced.
    case replace
    /// A history traversal (Back, Forward) to an entry Turbo knows.
    case restore

    /// `text` as Turbo sends it; anything else is an advance, as Turbo's own default.
    package init(turbo text: String?) {
        self = text.flatMap(VisitAction.init(rawValue:)) ?? .advance
    }
}

/// Which stack a navigator keeps: the main window's, or a modal's over it.
package enum Stack: String, Sendable {
    case main, modal
}

/// A visit Turbo proposed, kept by the page's adapter under `number` until native answers.
package struct VisitProposal: Equatable, Sendable {
    /// The adapter's number for the proposal (counted from 1 in each document).
    package var number: Int
    /// Where the visit goes (absolute).
    package var location: String
    /// The action Turbo proposed.
    package var action: VisitAction
    /// `false`: the page is already rendered and the visit only records history — a frame that advances
    /// history, or Turbo 8 following a redirect.
    package var willRender: Bool
    /// The visit comes from a `<turbo-frame>` navigation that advances (or replaces) history.
    package var frame: Bool

    package init(number: Int, location: String, action: VisitAction, willRender: Bool = true, frame: Bool = false) {
        self.number = number
        self.location = location
        self.action = action
        self.willRender = willRender
        self.frame = frame
    }
}
