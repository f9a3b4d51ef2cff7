extension Navigator {
    /// The stack's tab is switched away from (an app with tabs: one navigator per tab, one shown at a time).
    /// The top screen's components get will- and did-disappear and its controls leave the window, kept as
    /// they are; the tab's web view, page and bridge stay. Screens may still change while hidden (a visit
    /// finishing); their controls wait for ``showInWindow()``.
    package func hideFromWindow() {
        guard isShownInWindow else { return }
        isShownInWindow = false
        top?.tabHidden()
    }

    /// The stack's tab is shown again: the top screen's controls come back exactly as they were, its
    /// components get will- and did-appear, and the window shows the top screen's content and Back as the
    /// stack says.
    package func showInWindow() {
        guard !isShownInWindow else { return }
        isShownInWindow = true
        top?.tabShown()
        window.setBackButtonVisible(stack.count > 1)
        showContent()
    }
}
