import CWebKitGTK
import Foundation
import StradaCore

/// Header-bar buttons: `GtkButton`s packed at the start or end of the `AdwHeaderBar`.
extension WindowControls {
    func setButton(_ button: HeaderButton, onActivate: @escaping @MainActor () -> Void) {
        if var entry = buttons[button.id], entry.button.placement == button.placement {
            apply(button, to: entry.widget.pointer)
            entry.button = button
            entry.onActivate = onActivate
            buttons[button.id] = entry
            observer?(.changed(ControlSnapshot(button)))
            return
        }
        if buttons[button.id] != nil { removeButton(id: button.id) }
        let widget = gtk_button_new()!
        apply(button, to: widget)
        let id = button.id
        onSignal(UnsafeMutableRawPointer(widget), "clicked") { [weak self] in
            guard let self, let entry = self.buttons[id] else { return }
            self.lastPressed = (id, DispatchTime.now().uptimeNanoseconds)
            entry.onActivate()
        }
        switch button.placement {
        case .start: adw_header_bar_pack_start(strada_adw_header_bar(headerBar), widget)
        case .end: adw_header_bar_pack_end(strada_adw_header_bar(headerBar), widget)
        }
        buttons[button.id] = ButtonEntry(widget: WidgetRef(widget), button: button, onActivate: onActivate)
        observer?(.added(ControlSnapshot(button)))
    }

    func removeButton(id: String) {
        guard let entry = buttons.removeValue(forKey: id) else { return }
        adw_header_bar_remove(strada_adw_header_bar(headerBar), entry.widget.pointer)
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
}
