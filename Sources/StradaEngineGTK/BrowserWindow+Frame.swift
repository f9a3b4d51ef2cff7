import CWebKitGTK

extension BrowserWindow {
    /// What a window of its own has and a tab shares with its main window: Back at the start of the header
    /// bar (as GNOME apps have it, with Alt+Left and the mouse's back button), a modal's Cancel and Escape,
    /// Ctrl+R and F5, and closing. Each reports a page event of this window.
    func installWindowChrome(modal: Bool) {
        gtk_widget_set_tooltip_text(backButton, "Back")
        gtk_widget_set_visible(backButton, 0)
        adw_header_bar_pack_start(strada_adw_header_bar(controls.headerBar), backButton)
        onSignal(UnsafeMutableRawPointer(backButton), "clicked") { [weak self] in self?.onPageEvent?(.backRequested) }
        if modal {
            // A modal, the GNOME way: one way out — Cancel at the start of its header bar (and Escape), no close
            // button as well.
            let cancel = gtk_button_new_with_mnemonic("_Cancel")!
            adw_header_bar_set_show_end_title_buttons(strada_adw_header_bar(controls.headerBar), 0)
            adw_header_bar_set_show_start_title_buttons(strada_adw_header_bar(controls.headerBar), 0)
            adw_header_bar_pack_start(strada_adw_header_bar(controls.headerBar), cancel)
            onSignal(UnsafeMutableRawPointer(cancel), "clicked") { [weak self] in self?.onPageEvent?(.dismissRequested)
            }
            onTrigger(keys: "Escape", .dismissRequested)
        }
        onTrigger(keys: "<Alt>Left", button: 8, .backRequested)
        onTrigger(keys: "<Control>r|F5", .refreshRequested)
        onBoolSignal(UnsafeMutableRawPointer(window), "close-request") { [weak self] in
            guard let self else { return false }
            if self.parent != nil {
                self.onPageEvent?(.dismissRequested)
                return true  // the navigator dismisses it (and destroys the window)
            }
            self.onPageEvent?(.windowClosed)
            return false
        }
    }
}
