import StradaCore

/// A call from the navigator into the page's Turbo adapter (`window.__stradaTurbo`, `SDK/web/turbo-adapter.js`),
/// or into the page itself.
package enum TurboCall: Equatable, Sendable {
    /// Start the kept proposal's visit with `action`.
    case visitProposal(Int, VisitAction)
    /// Forget a kept proposal: native did what it meant.
    case discardProposal(Int)
    /// Start a fresh Turbo visit.
    case visit(String, VisitAction)
    /// Ask the page's bridge components to connect again (`native:restore`): the screen shown came back, or
    /// is new, without its components having said so.
    case restored
    /// Replace the page's history entry with `url` (`location.replace`): a page without Turbo.
    case replaceLocation(String)

    /// The JavaScript the engine evaluates in the page.
    package var script: String {
        func quoted(_ text: String) -> String { JSON.string(text).serialized() }
        switch self {
        case .visitProposal(let number, let action):
            return "window.__stradaTurbo.visitProposal(\(number), \(quoted(action.rawValue)))"
        case .discardProposal(let number):
            return "window.__stradaTurbo.discardProposal(\(number))"
        case .visit(let url, let action):
            return "window.__stradaTurbo.visit(\(quoted(url)), \(quoted(action.rawValue)))"
        case .restored:
            return "window.__stradaTurbo && window.__stradaTurbo.restored()"
        case .replaceLocation(let url):
            return "location.replace(\(quoted(url)))"
        }
    }
}
