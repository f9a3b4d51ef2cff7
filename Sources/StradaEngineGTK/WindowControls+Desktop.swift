import CWebKitGTK
import StradaCore

/// The desktop's services rather than the window's widgets: the clipboard, libadwaita's colour scheme
/// and the default browser.
extension WindowControls {
    func copyToClipboard(_ text: String) {
        gdk_clipboard_set_text(gtk_widget_get_clipboard(window), text)
        observer?(.clipboard(text))
    }

    func setColorScheme(_ scheme: ColorScheme) {
        let adwScheme: AdwColorScheme =
            switch scheme {
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

    func openWithSystem(_ url: String) {
        if launchesBrowser { gtk_show_uri(strada_gtk_window(window), url, 0) }
        observer?(.openedWithSystem(url))
    }
}
