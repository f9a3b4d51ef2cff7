import CWebKitGTK
import Foundation
import StradaCore

/// Menus: a `GtkPopover` of flat buttons, pointing at a header-bar button, a rectangle of the web view
/// (`anchor`) or the window title.
extension WindowControls {
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
            onSignal(UnsafeMutableRawPointer(button), "clicked") { [weak self] in
                self?.menuItemChosen(id: id, index: index)
            }
            items[item.index] = button
        }
        gtk_popover_set_child(strada_gtk_popover(popover), box)
        if let buttonID = menu.anchorButton, let button = buttons[buttonID] {
            gtk_widget_set_parent(popover, button.widget)
        } else if let anchor = menu.anchor, let view = anchorView?.widget {
            gtk_widget_set_parent(popover, view)
            var rect = GdkRectangle(
                x: Int32(anchor.x), y: Int32(anchor.y),
                width: Int32(max(anchor.width, 1)), height: Int32(max(anchor.height, 1)))
            gtk_popover_set_pointing_to(strada_gtk_popover(popover), &rect)
        } else {
            gtk_widget_set_parent(popover, tabSwitcher?.title ?? titleWidget)
        }
        menus[menu.id] = MenuEntry(popover: popover, menu: menu, items: items, onChoice: onChoice)
        onSignal(UnsafeMutableRawPointer(popover), "closed") { [weak self] in
            // Dismissed by the user (click outside, Escape): report no choice, once.
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.closeMenu(id: id, notify: true) } }
        }
        gtk_popover_popup(strada_gtk_popover(popover))
        observer?(.added(ControlSnapshot(menu)))
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
}
