import CWebKitGTK
public import StradaCore

/// A change to the native controls, reported to the automation channel.
public enum ControlChange: Sendable {
    case added(HeaderButton)
    case changed(HeaderButton)
    case removed(id: String)
}

/// Why activating a control failed.
public enum ControlActivationError: Error, CustomStringConvertible, Sendable {
    case noSuchControl(String)
    case disabled(String)

    public var description: String {
        switch self {
        case .noSuchControl(let id): "no native control with id \"\(id)\""
        case .disabled(let id): "native control \"\(id)\" is disabled"
        }
    }
}

/// The header bar's buttons: real `GtkButton`s packed at the start or end of the window's `GtkHeaderBar`.
@MainActor
public final class HeaderBarControls {
    private struct Entry {
        let widget: UnsafeMutablePointer<GtkWidget>
        var button: HeaderButton
        var onActivate: @MainActor () -> Void
    }

    private let headerBar: OpaquePointer
    private var entries: [String: Entry] = [:]
    /// Sees every control added, changed or removed.
    public var observer: (@MainActor (ControlChange) -> Void)?

    init(headerBar: OpaquePointer) {
        self.headerBar = headerBar
    }

    /// All buttons shown now, sorted by id.
    public var buttons: [HeaderButton] { entries.values.map(\.button).sorted { $0.id < $1.id } }

    func setButton(_ button: HeaderButton, onActivate: @escaping @MainActor () -> Void) {
        if var entry = entries[button.id], entry.button.placement == button.placement {
            apply(button, to: entry.widget)
            entry.button = button
            entry.onActivate = onActivate
            entries[button.id] = entry
            observer?(.changed(button))
            return
        }
        if entries[button.id] != nil { removeButton(id: button.id) }
        let widget = gtk_button_new()!
        apply(button, to: widget)
        let id = button.id
        onSignal(UnsafeMutableRawPointer(widget), "clicked") { [weak self] in
            self?.entries[id]?.onActivate()
        }
        switch button.placement {
        case .start: gtk_header_bar_pack_start(headerBar, widget)
        case .end: gtk_header_bar_pack_end(headerBar, widget)
        }
        entries[button.id] = Entry(widget: widget, button: button, onActivate: onActivate)
        observer?(.added(button))
    }

    func removeButton(id: String) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        gtk_header_bar_remove(headerBar, entry.widget)
        observer?(.removed(id: id))
    }

    /// Presses the button `id` through GTK (`gtk_widget_activate` emits "clicked"), as a user would.
    public func activate(id: String) throws(ControlActivationError) {
        guard let entry = entries[id] else { throw .noSuchControl(id) }
        guard entry.button.isEnabled, gtk_widget_is_sensitive(entry.widget) != 0 else { throw .disabled(id) }
        gtk_widget_activate(entry.widget)
    }

    private func apply(_ button: HeaderButton, to widget: UnsafeMutablePointer<GtkWidget>) {
        let gtkButton = strada_gtk_button(widget)
        if let icon = button.iconName, !icon.isEmpty {
            gtk_button_set_icon_name(gtkButton, icon)
            gtk_widget_set_tooltip_text(widget, button.title)
        } else {
            gtk_button_set_label(gtkButton, button.title)
        }
        gtk_widget_set_sensitive(widget, button.isEnabled ? 1 : 0)
        gtk_widget_remove_css_class(widget, "suggested-action")
        gtk_widget_remove_css_class(widget, "destructive-action")
        switch button.style {
        case .normal: break
        case .suggested: gtk_widget_add_css_class(widget, "suggested-action")
        case .destructive: gtk_widget_add_css_class(widget, "destructive-action")
        }
    }
}

/// One page's view of the header bar: remembers what the page added so all of it goes when the page goes.
@MainActor
final class PageControls: NativeControls {
    private let headerBar: HeaderBarControls
    private var ids: Set<String> = []

    init(headerBar: HeaderBarControls) {
        self.headerBar = headerBar
    }

    func setButton(_ button: HeaderButton, onActivate: @escaping @MainActor () -> Void) {
        ids.insert(button.id)
        headerBar.setButton(button, onActivate: onActivate)
    }

    func removeButton(id: String) {
        ids.remove(id)
        headerBar.removeButton(id: id)
    }

    func removeAll() {
        for id in ids.sorted() { headerBar.removeButton(id: id) }
        ids.removeAll()
    }
}
