/// Where a header-bar button sits.
public enum ControlPlacement: String, Sendable, Hashable, Codable {
    case start, end
}

/// Visual emphasis of a button or dialog action.
public enum ButtonStyle: String, Sendable, Hashable, Codable {
    /// An ordinary button.
    case normal
    /// The page's primary action (e.g. submit).
    case suggested
    /// An action that destroys data.
    case destructive
}

/// A button in the window's header bar, owned by one component of one page.
public struct HeaderButton: Sendable, Hashable {
    /// Unique within the component that owns it, e.g. "submit".
    public var id: String
    public var title: String
    /// A freedesktop icon name (e.g. "document-send-symbolic"); the title is then the tooltip.
    public var iconName: String?
    public var isEnabled: Bool
    public var placement: ControlPlacement
    public var style: ButtonStyle

    public init(
        id: String, title: String, iconName: String? = nil, isEnabled: Bool = true, placement: ControlPlacement = .end,
        style: ButtonStyle = .normal
    ) {
        self.style = style
        self.id = id
        self.title = title
        self.iconName = iconName
        self.isEnabled = isEnabled
        self.placement = placement
    }
}

/// A rectangle in page (CSS pixel) coordinates, e.g. the element a menu was opened from.
public struct ControlAnchor: Sendable, Hashable {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A menu of choices: a popover anchored to `anchor` (or the header bar when `nil`).
public struct ControlMenu: Sendable, Hashable {
    public struct Item: Sendable, Hashable {
        public var title: String
        /// The value reported when this item is chosen (the page's own index).
        public var index: Int
        public init(title: String, index: Int) {
            self.title = title
            self.index = index
        }
    }
    public var id: String
    public var title: String
    public var items: [Item]
    public var anchor: ControlAnchor?
    /// The id of one of the component's header-bar buttons to point at (e.g. the button that opened it).
    public var anchorButton: String?
    public init(id: String, title: String, items: [Item], anchor: ControlAnchor? = nil, anchorButton: String? = nil) {
        self.id = id
        self.title = title
        self.items = items
        self.anchor = anchor
        self.anchorButton = anchorButton
    }
}

/// A modal dialog asking to confirm or dismiss.
public struct ControlAlert: Sendable, Hashable {
    public var id: String
    public var title: String
    public var message: String?
    public var confirmTitle: String
    public var dismissTitle: String
    public var isDestructive: Bool
    public init(
        id: String, title: String, message: String? = nil, confirmTitle: String = "OK", dismissTitle: String = "Cancel",
        isDestructive: Bool = false
    ) {
        self.id = id
        self.title = title
        self.message = message
        self.confirmTitle = confirmTitle
        self.dismissTitle = dismissTitle
        self.isDestructive = isDestructive
    }
}

/// A search entry the header bar reveals.
public struct ControlSearch: Sendable, Hashable {
    public var id: String
    public var placeholder: String
    public init(id: String, placeholder: String = "Search") {
        self.id = id
        self.placeholder = placeholder
    }
}

/// The application's colour scheme.
public enum ColorScheme: String, Sendable, Hashable, Codable {
    case light, dark
    /// Follow the desktop's preference.
    case system
}

/// The native controls a page's components may show. The engine gives each page (destination) its own
/// instance and removes every control of a page when the page goes away. All callbacks run on the main
/// thread, at most once for menus and alerts.
@MainActor
package protocol NativeControls: AnyObject {
    /// Shows `button`, or updates the one with the same id. `onActivate` runs when it is pressed.
    func setButton(_ button: HeaderButton, onActivate: @escaping @MainActor () -> Void)
    /// Removes the button with `id`; no effect if there is none.
    func removeButton(id: String)
    /// Presents `menu`; `onChoice` gets the chosen item's index, or `nil` when dismissed.
    func presentMenu(_ menu: ControlMenu, onChoice: @escaping @MainActor (Int?) -> Void)
    /// Presents `alert`; `onAnswer` gets `true` when confirmed, `false` when dismissed.
    func presentAlert(_ alert: ControlAlert, onAnswer: @escaping @MainActor (Bool) -> Void)
    /// Shows a transient message.
    func showToast(_ message: String)
    /// Sets the window title and subtitle (`nil` title: the page's own title).
    func setWindowTitle(_ title: String?, subtitle: String?)
    /// Shows a search entry (or updates it); `onChange` gets the text as the user types.
    func setSearch(_ search: ControlSearch, onChange: @escaping @MainActor (String) -> Void)
    /// Removes the search entry `id`.
    func removeSearch(id: String)
    /// Puts `text` on the clipboard.
    func copyToClipboard(_ text: String)
    /// Sets the application's colour scheme.
    func setColorScheme(_ scheme: ColorScheme)
    /// Opens `url` in the user's browser.
    func openInBrowser(_ url: String)
    /// Closes menu or alert `id` without answering it.
    func dismissSilently(id: String)
    /// Removes every control whose id starts with `prefix` (buttons, menus, alerts, searches) without telling
    /// anyone: what a component leaves behind when it is destroyed.
    func removeAll(withPrefix prefix: String)
}

/// The controls of one component. Ids are namespaced with `idPrefix` (the host uses "<component>.", so
/// "submit" of `form` is "form.submit" page-wide and two components never collide).
@MainActor
public final class ComponentControls {
    private let base: any NativeControls
    private let idPrefix: String

    package init(base: any NativeControls, idPrefix: String) {
        self.base = base
        self.idPrefix = idPrefix
    }

    /// Shows or updates a header-bar button; `onActivate` runs when it is pressed.
    public func setButton(_ button: HeaderButton, onActivate: @escaping @MainActor () -> Void) {
        var scoped = button
        scoped.id = idPrefix + button.id
        base.setButton(scoped, onActivate: onActivate)
    }

    /// Removes the component's button `id`.
    public func removeButton(id: String) {
        base.removeButton(id: idPrefix + id)
    }

    /// Removes the component's control `id` of any kind, silently (no answer is delivered).
    public func removeControl(id: String) {
        base.removeButton(id: idPrefix + id)
        base.removeSearch(id: idPrefix + id)
        base.dismissSilently(id: idPrefix + id)
    }

    /// Presents a menu; `onChoice` gets the chosen index or `nil` when dismissed.
    public func presentMenu(_ menu: ControlMenu, onChoice: @escaping @MainActor (Int?) -> Void) {
        var scoped = menu
        scoped.id = idPrefix + menu.id
        scoped.anchorButton = menu.anchorButton.map { idPrefix + $0 }
        base.presentMenu(scoped, onChoice: onChoice)
    }

    /// Presents a confirmation dialog; `onAnswer` gets `true` when confirmed.
    public func presentAlert(_ alert: ControlAlert, onAnswer: @escaping @MainActor (Bool) -> Void) {
        var scoped = alert
        scoped.id = idPrefix + alert.id
        base.presentAlert(scoped, onAnswer: onAnswer)
    }

    public func showToast(_ message: String) { base.showToast(message) }
    public func setWindowTitle(_ title: String?, subtitle: String? = nil) {
        base.setWindowTitle(title, subtitle: subtitle)
    }

    /// Shows or updates a search entry; `onChange` gets the text as it changes.
    public func setSearch(_ search: ControlSearch, onChange: @escaping @MainActor (String) -> Void) {
        var scoped = search
        scoped.id = idPrefix + search.id
        base.setSearch(scoped, onChange: onChange)
    }

    public func removeSearch(id: String) { base.removeSearch(id: idPrefix + id) }
    public func copyToClipboard(_ text: String) { base.copyToClipboard(text) }
    public func setColorScheme(_ scheme: ColorScheme) { base.setColorScheme(scheme) }
    public func openInBrowser(_ url: String) { base.openInBrowser(url) }
    /// Removes every control this component shows, silently (its page is leaving or it is destroyed).
    public func removeAll() { base.removeAll(withPrefix: idPrefix) }
}

extension HeaderButton {
    /// The button as JSON, the one form used by the automation channel and the isolation workers:
    /// `{id, title, icon, enabled, placement, style}`.
    package var json: JSONObject {
        [
            "id": .string(id), "title": .string(title), "icon": iconName.map(JSON.string) ?? .null,
            "enabled": .bool(isEnabled),
            "placement": .string(placement.rawValue), "style": .string(style.rawValue),
        ]
    }

    /// Reads ``json``; missing or unknown fields take the defaults.
    package init(json: JSON) {
        var enabled = true
        if case .bool(let value)? = json["enabled"] { enabled = value }
        self.init(
            id: json["id"]?.stringValue ?? "", title: json["title"]?.stringValue ?? "",
            iconName: json["icon"]?.stringValue,
            isEnabled: enabled,
            placement: json["placement"]?.stringValue.flatMap(ControlPlacement.init(rawValue:)) ?? .end,
            style: json["style"]?.stringValue.flatMap(ButtonStyle.init(rawValue:)) ?? .normal)
    }
}
