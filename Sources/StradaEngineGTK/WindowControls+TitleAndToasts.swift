import CWebKitGTK

/// Toasts in the `AdwToastOverlay`; the title and subtitle in the header bar's title widget (the `AdwWindowTitle`,
/// or with tabs the view switcher's title) and the window's own title.
extension WindowControls {
    func showToast(_ message: String) {
        let toast = adw_toast_new(message)
        adw_toast_overlay_add_toast(strada_adw_toast_overlay(toastOverlay), toast)
        observer?(.toast(message))
    }

    /// A component's title; `nil` gives the title back to the page (or the default).
    func setWindowTitle(_ title: String?, subtitle: String?) {
        componentTitle = title.map { ($0, subtitle) }
        updateTitle()
    }

    /// Shows the component's title, else the page's, else the default.
    func updateTitle() {
        let title = componentTitle?.title ?? (pageTitle.isEmpty ? defaultTitle : pageTitle)
        let subtitle = componentTitle?.subtitle
        // The header bar's title widget: the view switcher's title with tabs (the window title it replaced is
        // out of the header bar), else the window title.
        if let tabSwitcher {
            tabSwitcher.setTitle(title, subtitle: subtitle)
        } else {
            adw_window_title_set_title(strada_adw_window_title(titleWidget), title)
            adw_window_title_set_subtitle(strada_adw_window_title(titleWidget), subtitle ?? "")
        }
        gtk_window_set_title(strada_gtk_window(window), title)
        observer?(.windowTitle(title: title, subtitle: subtitle))
    }
}
