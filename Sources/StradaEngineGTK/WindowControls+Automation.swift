import CWebKitGTK

/// Automation: the controls as the automation channel sees them, and acting on them as a user would.
extension WindowControls {
    /// Every control shown now, sorted by id.
    package var snapshots: [ControlSnapshot] {
        (buttons.values.map { ControlSnapshot($0.button) }
            + menus.values.map { ControlSnapshot($0.menu, pointsAt: $0.pointsAt) }
            + alerts.values.map { ControlSnapshot($0.alert) }
            + (search.map { [ControlSnapshot($0.search, text: currentSearchText)] } ?? [])
            + (primaryMenuOpen ? primaryMenu.map { [Self.snapshot($0.menu)] } ?? [] : [])
            + chromeWindows.values.map(\.snapshot) + (contextMenu.map { [$0] } ?? [])
            + (inspectorOpen ? [ControlSnapshot(id: "page.inspector", kind: "inspector", properties: [:])] : [])
            + pageRequestSnapshots)
            .sorted { $0.id < $1.id }
    }

    /// Presses button `id` (`gtk_widget_activate` emits "clicked"); the primary menu's button opens it.
    package func activate(id: String) throws(ControlActionError) {
        if id == Self.primaryMenuID, primaryMenu != nil { return openPrimaryMenu() }
        guard let entry = buttons[id] else { throw try wrongKindOrMissing(id, expected: "button") }
        guard entry.button.isEnabled, gtk_widget_is_sensitive(entry.widget.pointer) != 0 else { throw .disabled(id) }
        gtk_widget_activate(entry.widget.pointer)
    }

    /// Chooses the item with `index` in menu `id` by activating its action, as clicking its row does.
    package func choose(id: String, index: Int) throws(ControlActionError) {
        if id == Self.primaryMenuID, primaryMenu != nil { return try choosePrimaryMenuItem(index) }
        guard let entry = menus[id] else { throw try wrongKindOrMissing(id, expected: "menu") }
        guard entry.indices.contains(index) else { throw .noSuchItem(id, index) }
        g_action_group_activate_action(entry.actions.pointer, "choose", g_variant_new_int32(Int32(index)))
    }

    /// Dismisses menu or dialog `id` as Escape would (the About and Keyboard Shortcuts windows too); cancels
    /// a file chooser or print request.
    package func dismiss(id: String) throws(ControlActionError) {
        if closeChromeWindow(id: id) || cancelPageRequest(id: id) { return }
        if id == Self.primaryMenuID, let entry = primaryMenu, primaryMenuOpen {
            gtk_menu_button_popdown(strada_gtk_menu_button(entry.button.pointer))
        } else if let entry = menus[id] {
            gtk_popover_popdown(strada_gtk_popover(entry.popover.pointer))
            closeMenu(id: id, notify: true)
        } else if let entry = alerts[id] {
            adw_message_dialog_response(strada_adw_message_dialog(entry.dialog.pointer), "dismiss")
        } else {
            throw try wrongKindOrMissing(id, expected: "menu or dialog")
        }
    }

    /// Confirms dialog `id` (its "confirm" response).
    package func confirm(id: String) throws(ControlActionError) {
        guard let entry = alerts[id] else { throw try wrongKindOrMissing(id, expected: "dialog") }
        adw_message_dialog_response(strada_adw_message_dialog(entry.dialog.pointer), "confirm")
    }

    /// Types `text` into search `id` (replacing its text; "search-changed" follows).
    package func type(id: String, text: String) throws(ControlActionError) {
        guard search?.search.id == id else { throw try wrongKindOrMissing(id, expected: "search") }
        gtk_editable_set_text(strada_gtk_editable(searchEntry), text)
    }

    func wrongKindOrMissing(
        _ id: String, expected: String
    ) throws(ControlActionError) -> ControlActionError {
        if let actual = snapshots.first(where: { $0.id == id }) {
            return .wrongKind(id, expected: expected, actual: actual.kind)
        }
        return .noSuchControl(id)
    }
}
