import CWebKitGTK

/// An app with tabs: the view switcher takes the header bar's title and the place of the content under the
/// search bar, its bar goes at the bottom.
extension WindowControls {
    /// Puts `switcher` in the window: its stack where the content was (the content is unparented: the caller
    /// holds a reference and puts it in the first tab), its title as the header bar's title widget, its bar
    /// under the content.
    func installTabs(_ switcher: TabSwitcher) {
        tabSwitcher = switcher
        adw_toast_overlay_set_child(strada_adw_toast_overlay(toastOverlay), switcher.stack)
        adw_header_bar_set_title_widget(strada_adw_header_bar(headerBar), switcher.title)
        gtk_box_append(strada_gtk_box(content), switcher.bar)
        updateTitle()
    }
}
