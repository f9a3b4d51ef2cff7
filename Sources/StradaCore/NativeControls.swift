/// Where a header-bar button sits.
public enum ControlPlacement: String, Sendable, Hashable, Codable {
    case start, end
}

/// Visual emphasis of a button.
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

/// The native controls a page's components may show. The engine gives each page (destination) its own
/// instance, and removes every control of a page when the page goes away.
@MainActor
public protocol NativeControls: AnyObject {
    /// Shows `button`, or updates the one with the same id. `onActivate` runs on the main thread when the
    /// user (or the automation channel) presses it.
    func setButton(_ button: HeaderButton, onActivate: @escaping @MainActor () -> Void)
    /// Removes the button with `id`; no effect if there is none.
    func removeButton(id: String)
}

/// The controls of one component. Ids are namespaced with `idPrefix` (the host uses "<component>.", so
/// "submit" of `form` is "form.submit" page-wide and two components never collide).
@MainActor
public final class ComponentControls {
    private let base: any NativeControls
    private let idPrefix: String

    public init(base: any NativeControls, idPrefix: String) {
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
}
