package import StradaCore

/// The window's primary menu, as the GNOME HIG has it: the `open-menu-symbolic` button at the end of the
/// header bar (F10 opens it) with the app's own items from its definition, then "Keyboard Shortcuts" and
/// "About <App>". Plain data: `WindowControls+PrimaryMenu` builds the `GtkMenuButton` from it.
package struct PrimaryMenu: Sendable, Equatable {
    /// What an item does.
    package enum Action: Sendable, Equatable {
        /// Visits a URL in the main window, as a link would.
        case visit(String)
        /// A native action, by name (``nativeActions``).
        case reload, back, quit, closeWindow, shortcuts, about

        /// The automation channel's name for the action (`visit` items report their `url` too).
        package var name: String {
            switch self {
            case .visit: "visit"
            case .reload: "reload"
            case .back: "back"
            case .quit: "quit"
            case .closeWindow: "close-window"
            case .shortcuts: "shortcuts"
            case .about: "about"
            }
        }
    }

    /// One item: its label and what it does.
    package struct Item: Sendable, Equatable {
        package var title: String
        package var action: Action
        package init(title: String, action: Action) {
            self.title = title
            self.action = action
        }
    }

    /// The native actions an app definition's menu item may name (`"action": "reload"`).
    package static let nativeActions: [String: Action] = [
        "reload": .reload, "back": .back, "quit": .quit, "close-window": .closeWindow, "shortcuts": .shortcuts,
        "about": .about,
    ]

    /// The app's own items (the first section).
    package let appItems: [Item]
    /// The standard items (the last section): "Keyboard Shortcuts", "About <App>".
    package let standardItems: [Item]

    /// The menu of an app named `appName` with `appItems` of its own.
    package init(appItems: [Item], appName: String) {
        self.appItems = appItems
        standardItems = [
            Item(title: "_Keyboard Shortcuts", action: .shortcuts), Item(title: "_About \(appName)", action: .about),
        ]
    }

    /// Every item, in the order shown; an item's index here is the one `choose` takes.
    package var items: [Item] { appItems + standardItems }

    /// The control's properties on the automation channel: `items` (`title` without its mnemonic
    /// underscore, `index`, `action`, and `url` for a visit).
    package var json: JSONObject {
        let items = items.enumerated().map { index, item -> JSON in
            var fields: JSONObject = [
                "title": .string(item.title.replacingOccurrences(of: "_", with: "")),
                "index": .number(Double(index)), "action": .string(item.action.name),
            ]
            if case .visit(let url) = item.action { fields["url"] = .string(url) }
            return .object(fields)
        }
        return ["items": .array(items)]
    }
}
