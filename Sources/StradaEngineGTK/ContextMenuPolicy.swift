/// Which of WebKit's context-menu items an app's page keeps: what an app's user expects on a right click
/// (copy, cut, paste, select all, copy a link's or an image's address, spelling), not a browser's (Back,
/// Forward, Stop, Reload, open in a new window, download). A link gets "Open Link in Browser" instead, and
/// "Inspect Element" is there only in developer mode. Plain Swift: the GTK side (`BrowserWindow+ContextMenu`)
/// names WebKit's stock actions with ``Action`` and applies the decision.
package enum ContextMenuPolicy {
    /// A context-menu item, by what it does (WebKit's stock actions, plus ours).
    package enum Action: String, Sendable, CaseIterable {
        case separator
        case openLink = "open-link", openLinkInNewWindow = "open-link-in-new-window"
        case downloadLink = "download-link", copyLink = "copy-link"
        case openImageInNewWindow = "open-image-in-new-window", downloadImage = "download-image"
        case copyImage = "copy-image", copyImageAddress = "copy-image-address"
        case openFrameInNewWindow = "open-frame-in-new-window"
        case back, forward, stop, reload
        case copy, cut, paste, pasteAsPlainText = "paste-as-plain-text", delete, selectAll = "select-all"
        case inputMethods = "input-methods", unicode, insertEmoji = "insert-emoji"
        case spellingGuess = "spelling-guess", noGuessesFound = "no-guesses-found"
        case ignoreSpelling = "ignore-spelling", learnSpelling = "learn-spelling", ignoreGrammar = "ignore-grammar"
        case fontMenu = "font-menu", bold, italic, underline, outline
        case inspectElement = "inspect-element"
        case openMediaInNewWindow = "open-media-in-new-window", copyMediaLink = "copy-media-link"
        case mediaControls = "media-controls", mediaLoop = "media-loop", mediaFullscreen = "media-fullscreen"
        case mediaPlay = "media-play", mediaPause = "media-pause", mediaMute = "media-mute"
        case downloadMedia = "download-media"
        /// An item an application added (WebKit's "custom"), kept.
        case custom
        /// Ours: opens the link under the pointer in the user's browser.
        case openLinkInBrowser = "open-link-in-browser"
    }

    /// What a browser has and an app does not: history, loading, new windows, downloads.
    static let removed: Set<Action> = [
        .openLink, .openLinkInNewWindow, .downloadLink, .openImageInNewWindow, .downloadImage,
        .openFrameInNewWindow, .back, .forward, .stop, .reload, .openMediaInNewWindow, .downloadMedia,
    ]

    /// For each of WebKit's `items`, in order, whether it stays; plus whether "Open Link in Browser" is added
    /// (first, when `link` is true: the pointer is on a link). "Inspect Element" stays only when `developer`.
    /// Separators stay only between kept items (never first, last or two in a row).
    package static func decide(_ items: [Action], link: Bool, developer: Bool) -> (keep: [Bool], addOpenInBrowser: Bool)
    {
        var keep = items.map { item in
            item == .inspectElement ? developer : !removed.contains(item)
        }
        // Separators: drop those with no kept item before them (or another separator kept just before).
        var previousKept: Action?
        for (index, item) in items.enumerated() where keep[index] {
            if item == .separator, previousKept == nil || previousKept == .separator { keep[index] = false }
            if keep[index] { previousKept = item }
        }
        if let last = keep.indices.last(where: { keep[$0] }), items[last] == .separator { keep[last] = false }
        return (keep, link)
    }

    /// The menu shown for `items`: the kept ones, in order, after "Open Link in Browser" and a separator when
    /// `link` (what the automation channel reports).
    package static func shown(_ items: [Action], link: Bool, developer: Bool) -> [Action] {
        let (keep, add) = decide(items, link: link, developer: developer)
        let kept = zip(items, keep).filter(\.1).map(\.0)
        guard add else { return kept }
        return [.openLinkInBrowser] + (kept.isEmpty ? [] : [.separator]) + kept
    }
}
