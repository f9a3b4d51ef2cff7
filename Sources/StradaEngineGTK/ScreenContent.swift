import CWebKitGTK
package import StradaNavigation

extension VisitError {
    /// The symbolic icon for the error screen.
    var iconName: String { statusCode == 0 ? "network-offline-symbolic" : "dialog-warning-symbolic" }
}

/// What fills the window under the header bar: the web view, the error screen of a failed visit
/// (an `AdwStatusPage` with a Retry button), or a native screen a plugin provided. A `GtkStack`, so
/// switching keeps the web view alive (and its page, scroll position and scripts) underneath.
@MainActor
package final class ScreenContent {
    /// What the content shows.
    package enum Page: Equatable {
        case web
        case error(VisitError)
        case native(name: String)
    }

    /// The stack, the error screen and its Retry button, owned.
    private let owned: (stack: WidgetRef, errorPage: WidgetRef, retryButton: WidgetRef)
    var widget: UnsafeMutablePointer<GtkWidget> { owned.stack.pointer }
    private var errorPage: UnsafeMutablePointer<GtkWidget> { owned.errorPage.pointer }
    private var retryButton: UnsafeMutablePointer<GtkWidget> { owned.retryButton.pointer }
    /// The native screens shown, by name, each owned until ``removeNative(name:)``.
    private var natives: [String: WidgetRef] = [:]
    /// What is shown now.
    package private(set) var page: Page = .web
    /// The error screen's Retry button was pressed.
    var onRetry: (@MainActor () -> Void)?

    init(webView: UnsafeMutablePointer<GtkWidget>) {
        let widget = gtk_stack_new()!
        // No transition: what is shown changes at once (a screenshot mid-crossfade cannot be rendered).
        gtk_stack_set_transition_type(strada_stack_of(widget), GTK_STACK_TRANSITION_TYPE_NONE)
        gtk_stack_add_named(strada_stack_of(widget), webView, "web")

        let errorPage = adw_status_page_new()!
        let retryButton = gtk_button_new_with_mnemonic("_Retry")!
        gtk_widget_set_halign(retryButton, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(retryButton, "pill")
        gtk_widget_add_css_class(retryButton, "suggested-action")
        adw_status_page_set_child(strada_status_page_of(errorPage), retryButton)
        gtk_stack_add_named(strada_stack_of(widget), errorPage, "error")
        owned = (WidgetRef(widget), WidgetRef(errorPage), WidgetRef(retryButton))
        onSignal(UnsafeMutableRawPointer(retryButton), "clicked") { [weak self] in self?.onRetry?() }
        gtk_stack_set_visible_child_name(strada_stack_of(widget), "web")
    }

    /// Shows the web view.
    func showWeb() {
        page = .web
        gtk_stack_set_visible_child_name(strada_stack_of(widget), "web")
    }

    /// Shows the error screen for `error`, its Retry button focused (Enter retries).
    func showError(_ error: VisitError) {
        page = .error(error)
        let status = strada_status_page_of(errorPage)
        adw_status_page_set_icon_name(status, error.iconName)
        adw_status_page_set_title(status, error.title)
        adw_status_page_set_description(status, error.message)
        gtk_stack_set_visible_child_name(strada_stack_of(widget), "error")
        gtk_widget_grab_focus(retryButton)
    }

    /// Shows `native` (a plugin's screen widget) under `name`; the content keeps a reference until
    /// ``removeNative(name:)``.
    func showNative(_ native: UnsafeMutablePointer<GtkWidget>, name: String) {
        if natives[name] == nil {
            natives[name] = WidgetRef(native)
            gtk_stack_add_named(strada_stack_of(widget), native, name)
        }
        page = .native(name: name)
        gtk_stack_set_visible_child_name(strada_stack_of(widget), name)
    }

    /// Removes native screen `name` from the window (its widget is released).
    func removeNative(name: String) {
        guard let native = natives.removeValue(forKey: name) else { return }
        if page == .native(name: name) { showWeb() }
        gtk_stack_remove(strada_stack_of(widget), native.pointer)
    }
}
