import CWebKitGTK
import Foundation
import StradaCore

/// Menus: a GTK menu (`GtkPopoverMenu` from a menu model, the title as its section's heading), pointing at a
/// header-bar button, a rectangle of the web view (`anchor`) or the window title.
extension WindowControls {
    func presentMenu(_ menu: ControlMenu, onChoice: @escaping @MainActor (Int?) -> Void) {
        if menus[menu.id] != nil { closeMenu(id: menu.id, notify: true) }
        // A GTK menu, as the primary menu is: a menu model whose items activate "strada-menu.choose(index)".
        let items = g_menu_new()!
        for item in menu.items {
            let entry = g_menu_item_new(item.title, nil)
            g_menu_item_set_action_and_target_value(entry, "strada-menu.choose", g_variant_new_int32(Int32(item.index)))
            g_menu_append_item(items, entry)
            g_object_unref(entry.map { UnsafeMutableRawPointer($0) })
        }
        let model = g_menu_new()!
        g_menu_append_section(model, menu.title.isEmpty ? nil : menu.title, Self.model(items))
        g_object_unref(UnsafeMutableRawPointer(items))
        let popover = gtk_popover_menu_new_from_model(Self.model(model))!
        g_object_unref(UnsafeMutableRawPointer(model))
        let group = g_simple_action_group_new()!
        let type = g_variant_type_new("i")
        let action = g_simple_action_new("choose", type)!
        g_variant_type_free(type)
        let id = menu.id
        onPointerSignal(UnsafeMutableRawPointer(action), "activate") { [weak self] parameter in
            guard let parameter else { return }
            self?.menuItemChosen(id: id, index: Int(g_variant_get_int32(parameter)))
        }
        g_action_map_add_action(OpaquePointer(group), action)
        g_object_unref(UnsafeMutableRawPointer(action))
        gtk_widget_insert_action_group(popover, "strada-menu", OpaquePointer(group))
        let pointsAt: String
        if let buttonID = menu.anchorButton ?? recentlyPressedButton(), let button = buttons[buttonID] {
            gtk_widget_set_parent(popover, button.widget.pointer)
            pointsAt = buttonID
        } else if let anchor = menu.anchor, let view = anchorView?.widget {
            gtk_widget_set_parent(popover, view)
            var rect = GdkRectangle(
                x: Int32(anchor.x), y: Int32(anchor.y),
                width: Int32(max(anchor.width, 1)), height: Int32(max(anchor.height, 1)))
            gtk_popover_set_pointing_to(strada_gtk_popover(popover), &rect)
            pointsAt = "page"
        } else {
            gtk_widget_set_parent(popover, tabSwitcher?.title ?? titleWidget)
            pointsAt = "title"
        }
        menus[menu.id] = MenuEntry(
            popover: WidgetRef(popover), menu: menu, pointsAt: pointsAt, actions: GObjectRef(OpaquePointer(group)),
            indices: Set(menu.items.map(\.index)),
            onChoice: onChoice)
        g_object_unref(UnsafeMutableRawPointer(group))  // the popover holds it
        onSignal(UnsafeMutableRawPointer(popover), "closed") { [weak self] in
            // Dismissed by the user (click outside, Escape): report no choice, once.
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.closeMenu(id: id, notify: true) } }
        }
        gtk_popover_popup(strada_gtk_popover(popover))
        observer?(.added(ControlSnapshot(menu, pointsAt: pointsAt)))
    }

    /// The header-bar button pressed within the last 2 s, if it is still there: a menu that names no place of
    /// its own (`anchor`, `anchorButton`) is the page's answer to that press (the overflow menu's "More", say),
    /// so it points at the button, not at the middle of the header bar.
    private func recentlyPressedButton() -> String? {
        guard let last = lastPressed, buttons[last.id] != nil,
            DispatchTime.now().uptimeNanoseconds - last.at < 2_000_000_000
        else { return nil }
        return last.id
    }

    private static func model(_ menu: OpaquePointer) -> UnsafeMutablePointer<GMenuModel> {
        UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self)
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
        gtk_popover_popdown(strada_gtk_popover(entry.popover.pointer))
        gtk_widget_unparent(entry.popover.pointer)
        observer?(.removed(id: id))
        if notify { entry.onChoice?(nil) }
    }
}
