import CWebKitGTK
import Foundation
public import StradaCore

/// The window's native controls, built from the GNOME platform's own widgets: buttons in the
/// `AdwHeaderBar`, menus in `GtkPopover`s, dialogs as `AdwMessageDialog`s, toasts in an `AdwToastOverlay`,
/// title and subtitle in an `AdwWindowTitle`, a `GtkSearchBar`, the clipboard and `AdwStyleManager`.
/// Automation acts on them through GTK exactly as input would (activate, response, set text).
@MainActor
public final class WindowControls {
    private struct ButtonEntry {
        let widget: UnsafeMutablePointer<GtkWidget>
        var button: HeaderButton
        var onActivate: @MainActor () -> Void
    }
    private struct MenuEntry {
        let popover: UnsafeMutablePointer<GtkWidget>
        let menu: ControlMenu
        var items: [Int: UnsafeMutablePointer<GtkWidget>]
        var onChoice: (@MainActor (Int?) -> Void)?
    }
    private struct AlertEntry {
        let dialog: UnsafeMutablePointer<GtkWidget>
        let alert: ControlAlert
        var onAnswer: (@MainActor (Bool) -> Void)?
    }
    private struct SearchEntry {
        let search: ControlSearch
        var onChange: @MainActor (String) -> Void
    }

    let window: UnsafeMutablePointer<GtkWidget>
    let headerBar: UnsafeMutablePointer<GtkWidget>
    let content: UnsafeMutablePointer<GtkWidget>
    private let titleWidget: UnsafeMutablePointer<GtkWidget>
    private let toastOverlay: UnsafeMutablePointer<GtkWidget>
    private let searchBar: UnsafeMutablePointer<GtkWidget>
    private let searchEntry: UnsafeMutablePointer<GtkWidget>
    private weak var anchorView: (any AnchorView)?
    private var buttons: [String: ButtonEntry] = [:]
    private var menus: [String: MenuEntry] = [:]
    private var alerts: [String: AlertEntry] = [:]
    private var search: SearchEntry?
    private var settingSearchText = false
    /// Whether `openInBrowser` launches the desktop's browser (off under automation: it is only reported).
    public var launchesBrowser = true
    /// Sees every control added, changed or removed, and every one-shot effect.
    public var observer: (@MainActor (ControlChange) -> Void)?
    /// The page's own title, shown when no component set one.
    var pageTitle = "" { didSet { updateTitle() } }
    private var componentTitle: (title: String, subtitle: String?)?
    private let defaultTitle: String

    /// Builds the header bar, search bar and toast overlay around `webView` inside `window`.
    init(window: UnsafeMutablePointer<GtkWidget>, webView: UnsafeMutablePointer<GtkWidget>, title: String) {
        adw_init()
        self.window = window
        defaultTitle = title
        headerBar = adw_header_bar_new()
        titleWidget = adw_window_title_new(title, nil)
        adw_header_bar_set_title_widget(strada_adw_header_bar(headerBar), titleWidget)
        gtk_window_set_titlebar(strada_gtk_window(window), headerBar)

        searchEntry = gtk_search_entry_new()
        gtk_search_entry_set_search_delay(strada_gtk_search_entry(searchEntry), 0)
        gtk_widget_set_hexpand(searchEntry, 1)
        searchBar = gtk_search_bar_new()
        gtk_search_bar_set_child(strada_gtk_search_bar(searchBar), searchEntry)
        gtk_search_bar_connect_entry(strada_gtk_search_bar(searchBar), strada_gtk_editable(searchEntry))
        gtk_widget_set_visible(searchBar, 0)

        toastOverlay = adw_toast_overlay_new()
        adw_toast_overlay_set_child(strada_adw_toast_overlay(toastOverlay), webView)
        gtk_widget_set_vexpand(toastOverlay, 1)

        content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_box_append(strada_gtk_box(content), searchBar)
        gtk_box_append(strada_gtk_box(content), toastOverlay)
        gtk_window_set_child(strada_gtk_window(window), content)

        onSignal(UnsafeMutableRawPointer(searchEntry), "search-changed") { [weak self] in self?.searchChanged() }
    }

    /// Every control shown now, sorted by id.
    public var snapshots: [ControlSnapshot] {
        (buttons.values.map { Self.snapshot($0.button) }
            + menus.values.map { Self.snapshot($0.menu) }
            + alerts.values.map { Self.snapshot($0.alert) }
            + (search.map { [Self.snapshot($0.search, text: currentSearchText)] } ?? []))
            .sorted { $0.id < $1.id }
    }

    // MARK: Buttons

    func setButton(_ button: HeaderButton, onActivate: @escaping @MainActor () -> Void) {
        if var entry = buttons[button.id], entry.button.placement == button.placement {
            apply(button, to: entry.widget)
            entry.button = button
            entry.onActivate = onActivate
            buttons[button.id] = entry
            observer?(.changed(Self.snapshot(button)))
            return
        }
        if buttons[button.id] != nil { removeButton(id: button.id) }
        let widget = gtk_button_new()!
        apply(button, to: widget)
        let id = button.id
        onSignal(UnsafeMutableRawPointer(widget), "clicked") { [weak self] in self?.buttons[id]?.onActivate() }
        switch button.placement {
        case .start: adw_header_bar_pack_start(strada_adw_header_bar(headerBar), widget)
        case .end: adw_header_bar_pack_end(strada_adw_header_bar(headerBar), widget)
        }
        buttons[button.id] = ButtonEntry(widget: widget, button: button, onActivate: onActivate)
        observer?(.added(Self.snapshot(button)))
    }

    func removeButton(id: String) {
        guard let entry = buttons.removeValue(forKey: id) else { return }
        adw_header_bar_remove(strada_adw_header_bar(headerBar), entry.widget)
        observer?(.removed(id: id))
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

    // MARK: Menus

    func presentMenu(_ menu: ControlMenu, onChoice: @escaping @MainActor (Int?) -> Void) {
        if menus[menu.id] != nil { closeMenu(id: menu.id, notify: true) }
        let popover = gtk_popover_new()!
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        if !menu.title.isEmpty {
            let label = gtk_label_new(menu.title)!
            gtk_widget_add_css_class(label, "heading")
            gtk_widget_set_margin_bottom(label, 4)
            gtk_box_append(strada_gtk_box(box), label)
        }
        var items: [Int: UnsafeMutablePointer<GtkWidget>] = [:]
        let id = menu.id
        for item in menu.items {
            let button = gtk_button_new_with_label(item.title)!
            gtk_widget_add_css_class(button, "flat")
            gtk_box_append(strada_gtk_box(box), button)
            let index = item.index
            onSignal(UnsafeMutableRawPointer(button), "clicked") { [weak self] in self?.menuItemChosen(id: id, index: index) }
            items[item.index] = button
        }
        gtk_popover_set_child(strada_gtk_popover(popover), box)
        if let buttonID = menu.anchorButton, let button = buttons[buttonID] {
            gtk_widget_set_parent(popover, button.widget)
        } else if let anchor = menu.anchor, let view = anchorView?.widget {
            gtk_widget_set_parent(popover, view)
            var rect = GdkRectangle(x: Int32(anchor.x), y: Int32(anchor.y), width: Int32(max(anchor.width, 1)), height: Int32(max(anchor.height, 1)))
            gtk_popover_set_pointing_to(strada_gtk_popover(popover), &rect)
        } else {
            gtk_widget_set_parent(popover, titleWidget)
        }
        menus[menu.id] = MenuEntry(popover: popover, menu: menu, items: items, onChoice: onChoice)
        onSignal(UnsafeMutableRawPointer(popover), "closed") { [weak self] in
            // Dismissed by the user (click outside, Escape): report no choice, once.
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.closeMenu(id: id, notify: true) } }
        }
        gtk_popover_popup(strada_gtk_popover(popover))
        observer?(.added(Self.snapshot(menu)))
    }

    private func menuItemChosen(id: String, index: Int) {
        guard var entry = menus[id], let onChoice = entry.onChoice else { return }
        entry.onChoice = nil
        menus[id] = entry
        onChoice(index)
        closeMenu(id: id, notify: false)
    }

    /// Removes menu `id`; with `notify`, a pending choice handler gets `nil` (dismissed).
    func closeMenu(id: String, notify: Bool) {
        guard let entry = menus.removeValue(forKey: id) else { return }
        gtk_popover_popdown(strada_gtk_popover(entry.popover))
        gtk_widget_unparent(entry.popover)
        observer?(.removed(id: id))
        if notify { entry.onChoice?(nil) }
    }

    // MARK: Alerts

    func presentAlert(_ alert: ControlAlert, onAnswer: @escaping @MainActor (Bool) -> Void) {
        if alerts[alert.id] != nil { closeAlert(id: alert.id, answer: false) }
        let dialog = adw_message_dialog_new(strada_gtk_window(window), alert.title, alert.message)!
        let messageDialog = strada_adw_message_dialog(dialog)
        adw_message_dialog_add_response(messageDialog, "dismiss", alert.dismissTitle)
        adw_message_dialog_add_response(messageDialog, "confirm", alert.confirmTitle)
        adw_message_dialog_set_response_appearance(messageDialog, "confirm", alert.isDestructive ? ADW_RESPONSE_DESTRUCTIVE : ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(messageDialog, "dismiss")
        adw_message_dialog_set_close_response(messageDialog, "dismiss")
        let id = alert.id
        onStringSignal(UnsafeMutableRawPointer(dialog), "response") { [weak self] response in
            self?.closeAlert(id: id, answer: response == "confirm")
        }
        alerts[alert.id] = AlertEntry(dialog: dialog, alert: alert, onAnswer: onAnswer)
        gtk_window_present(strada_gtk_window(dialog))
        observer?(.added(Self.snapshot(alert)))
    }

    /// Closes alert `id`; `answer` goes to its handler unless `nil` (page gone: nobody is told).
    func closeAlert(id: String, answer: Bool?) {
        guard let entry = alerts.removeValue(forKey: id) else { return }
        gtk_window_destroy(strada_gtk_window(entry.dialog))
        observer?(.removed(id: id))
        if let answer { entry.onAnswer?(answer) }
    }

    // MARK: Toast, title, search, clipboard, colour scheme, browser

    func showToast(_ message: String) {
        let toast = adw_toast_new(message)
        adw_toast_overlay_add_toast(strada_adw_toast_overlay(toastOverlay), toast)
        observer?(.toast(message))
    }

    func setWindowTitle(_ title: String?, subtitle: String?) {
        componentTitle = title.map { ($0, subtitle) }
        updateTitle()
    }

    private func updateTitle() {
        let title = componentTitle?.title ?? (pageTitle.isEmpty ? defaultTitle : pageTitle)
        let subtitle = componentTitle?.subtitle
        adw_window_title_set_title(strada_adw_window_title(titleWidget), title)
        adw_window_title_set_subtitle(strada_adw_window_title(titleWidget), subtitle ?? "")
        gtk_window_set_title(strada_gtk_window(window), title)
        observer?(.windowTitle(title: title, subtitle: subtitle))
    }

    func setSearch(_ search: ControlSearch, onChange: @escaping @MainActor (String) -> Void) {
        let isNew = self.search?.search.id != search.id
        self.search = SearchEntry(search: search, onChange: onChange)
        strada_set_placeholder_text(searchEntry, search.placeholder)
        gtk_widget_set_visible(searchBar, 1)
        gtk_search_bar_set_search_mode(strada_gtk_search_bar(searchBar), 1)
        let snapshot = Self.snapshot(search, text: currentSearchText)
        observer?(isNew ? .added(snapshot) : .changed(snapshot))
    }

    func removeSearch(id: String) {
        guard search?.search.id == id else { return }
        search = nil
        settingSearchText = true
        gtk_editable_set_text(strada_gtk_editable(searchEntry), "")
        settingSearchText = false
        gtk_search_bar_set_search_mode(strada_gtk_search_bar(searchBar), 0)
        gtk_widget_set_visible(searchBar, 0)
        observer?(.removed(id: id))
    }

    private var currentSearchText: String {
        gtk_editable_get_text(strada_gtk_editable(searchEntry)).map { String(cString: $0) } ?? ""
    }

    private func searchChanged() {
        guard !settingSearchText, let search else { return }
        let text = currentSearchText
        observer?(.changed(Self.snapshot(search.search, text: text)))
        search.onChange(text)
    }

    func copyToClipboard(_ text: String) {
        gdk_clipboard_set_text(gtk_widget_get_clipboard(window), text)
        observer?(.clipboard(text))
    }

    func setColorScheme(_ scheme: ColorScheme) {
        let adwScheme: AdwColorScheme = switch scheme {
        case .light: ADW_COLOR_SCHEME_FORCE_LIGHT
        case .dark: ADW_COLOR_SCHEME_FORCE_DARK
        case .system: ADW_COLOR_SCHEME_DEFAULT
        }
        adw_style_manager_set_color_scheme(adw_style_manager_get_default(), adwScheme)
        observer?(.colorScheme(scheme))
    }

    func openInBrowser(_ url: String) {
        if launchesBrowser { gtk_show_uri(strada_gtk_window(window), url, 0) }
        observer?(.openedInBrowser(url))
    }

    // MARK: Automation: acting on controls as a user would

    /// Presses button `id` (`gtk_widget_activate` emits "clicked").
    public func activate(id: String) throws(ControlActionError) {
        guard let entry = buttons[id] else { throw try wrongKindOrMissing(id, expected: "button") }
        guard entry.button.isEnabled, gtk_widget_is_sensitive(entry.widget) != 0 else { throw .disabled(id) }
        gtk_widget_activate(entry.widget)
    }

    /// Chooses the item with `index` in menu `id` by activating its row.
    public func choose(id: String, index: Int) throws(ControlActionError) {
        guard let entry = menus[id] else { throw try wrongKindOrMissing(id, expected: "menu") }
        guard let item = entry.items[index] else { throw .noSuchItem(id, index) }
        gtk_widget_activate(item)
    }

    /// Dismisses menu or dialog `id` as Escape would.
    public func dismiss(id: String) throws(ControlActionError) {
        if let entry = menus[id] {
            gtk_popover_popdown(strada_gtk_popover(entry.popover))
            closeMenu(id: id, notify: true)
        } else if let entry = alerts[id] {
            adw_message_dialog_response(strada_adw_message_dialog(entry.dialog), "dismiss")
        } else {
            throw try wrongKindOrMissing(id, expected: "menu or dialog")
        }
    }

    /// Confirms dialog `id` (its "confirm" response).
    public func confirm(id: String) throws(ControlActionError) {
        guard let entry = alerts[id] else { throw try wrongKindOrMissing(id, expected: "dialog") }
        adw_message_dialog_response(strada_adw_message_dialog(entry.dialog), "confirm")
    }

    /// Types `text` into search `id` (replacing its text; "search-changed" follows).
    public func type(id: String, text: String) throws(ControlActionError) {
        guard search?.search.id == id else { throw try wrongKindOrMissing(id, expected: "search") }
        gtk_editable_set_text(strada_gtk_editable(searchEntry), text)
    }

    private func wrongKindOrMissing(_ id: String, expected: String) throws(ControlActionError) -> ControlActionError {
        if let actual = snapshots.first(where: { $0.id == id }) { return .wrongKind(id, expected: expected, actual: actual.kind) }
        return .noSuchControl(id)
    }

    func attachAnchorView(_ view: any AnchorView) { anchorView = view }

    /// For screenshots: draws open popovers at their place and dialogs centred over a dimmed window.
    func drawOverlays(into snapshot: OpaquePointer?, window: UnsafeMutablePointer<GtkWidget>, width: Double, height: Double) {
        for entry in menus.values where gtk_widget_get_visible(entry.popover) != 0 {
            // GTK places a popover under the rectangle it points to (or under its parent), centred.
            guard let parent = gtk_widget_get_parent(entry.popover) else { continue }
            var target = GdkRectangle(x: 0, y: 0, width: gtk_widget_get_width(parent), height: gtk_widget_get_height(parent))
            _ = gtk_popover_get_pointing_to(strada_gtk_popover(entry.popover), &target)
            var origin = graphene_point_t(x: 0, y: 0), inWindow = graphene_point_t(x: 0, y: 0)
            guard gtk_widget_compute_point(parent, window, &origin, &inWindow) != 0 else { continue }
            let popoverWidth = Double(gtk_widget_get_width(entry.popover))
            let x = Double(inWindow.x) + Double(target.x) + Double(target.width) / 2 - popoverWidth / 2
            let y = Double(inWindow.y) + Double(target.y) + Double(target.height)
            draw(entry.popover, into: snapshot, x: x, y: y)
        }
        for entry in alerts.values {
            var dim = graphene_rect_t(origin: graphene_point_t(x: 0, y: 0), size: graphene_size_t(width: Float(width), height: Float(height)))
            var shade = GdkRGBA(red: 0, green: 0, blue: 0, alpha: 0.35)
            gtk_snapshot_append_color(snapshot, &shade, &dim)
            let dialogWidth = Double(gtk_widget_get_width(entry.dialog)), dialogHeight = Double(gtk_widget_get_height(entry.dialog))
            draw(entry.dialog, into: snapshot, x: (width - dialogWidth) / 2, y: (height - dialogHeight) / 2)
        }
    }

    private func draw(_ widget: UnsafeMutablePointer<GtkWidget>, into snapshot: OpaquePointer?, x: Double, y: Double) {
        let widgetWidth = gtk_widget_get_width(widget), widgetHeight = gtk_widget_get_height(widget)
        guard widgetWidth > 0, widgetHeight > 0 else { return }
        let paintable = gtk_widget_paintable_new(widget)
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        gtk_snapshot_save(snapshot)
        var offset = graphene_point_t(x: Float(x), y: Float(y))
        gtk_snapshot_translate(snapshot, &offset)
        gdk_paintable_snapshot(paintable, snapshot, Double(widgetWidth), Double(widgetHeight))
        gtk_snapshot_restore(snapshot)
    }

    // MARK: Snapshots

    static func snapshot(_ button: HeaderButton) -> ControlSnapshot {
        ControlSnapshot(id: button.id, kind: "button", properties: button.json)
    }

    static func snapshot(_ menu: ControlMenu) -> ControlSnapshot {
        var properties: JSONObject = [
            "title": .string(menu.title),
            "items": .array(menu.items.map { ["title": .string($0.title), "index": .number(Double($0.index))] }),
        ]
        if let anchor = menu.anchor {
            properties["anchor"] = ["x": .number(anchor.x), "y": .number(anchor.y), "width": .number(anchor.width), "height": .number(anchor.height)]
        }
        return ControlSnapshot(id: menu.id, kind: "menu", properties: properties)
    }

    static func snapshot(_ alert: ControlAlert) -> ControlSnapshot {
        ControlSnapshot(id: alert.id, kind: "dialog", properties: [
            "title": .string(alert.title), "message": alert.message.map(JSON.string) ?? .null,
            "confirm": .string(alert.confirmTitle), "dismiss": .string(alert.dismissTitle), "destructive": .bool(alert.isDestructive),
        ])
    }

    static func snapshot(_ search: ControlSearch, text: String) -> ControlSnapshot {
        ControlSnapshot(id: search.id, kind: "search", properties: ["placeholder": .string(search.placeholder), "text": .string(text)])
    }
}
