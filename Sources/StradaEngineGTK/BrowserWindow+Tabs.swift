import CWebKitGTK
package import Logging
package import StradaCore
package import StradaNavigation

/// An app with tabs: the main window holds a view switcher, and each tab is a ``BrowserWindow`` of its own
/// web view, bridge and content inside the main window's `GtkWindow` — sharing its header bar, Back button,
/// controls and keys. The main window's own web view is the first tab's.
extension BrowserWindow {
    /// A tab of `host` (a main window with ``installTabs(_:)``): its own web view in `session` (the host's
    /// cookies and storage), bridge and content; the host's window, header bar and controls. Not shown until
    /// ``TabSwitcher/fill(_:with:)`` puts it in its page.
    package convenience init(
        tabOf host: BrowserWindow, componentNames: [String], originPolicy: OriginPolicy, session: NetworkSession,
        userAgentPrefix: String?, logger: Logger
    ) {
        self.init(
            title: "", componentNames: componentNames, originPolicy: originPolicy, session: session,
            userAgentPrefix: userAgentPrefix, logger: logger, tabOf: host)
        isShownInWindow = false
    }

    /// Makes this main window one with `tabs`: the view switcher in the header bar (and at the bottom when
    /// narrow), this window's content as the first tab's, and Ctrl+1…9 selecting tabs. The switcher's
    /// ``TabSwitcher/onSelect`` sees every selection.
    package func installTabs(_ tabs: TabSet) -> TabSwitcher {
        let switcher = TabSwitcher(tabs: tabs.tabs)
        tabSwitcher = switcher
        controls.installTabs(switcher)  // unparents the content, which ``content`` owns
        switcher.fill(0, with: self)
        for shortcut in tabs.shortcuts {
            onTrigger(keys: shortcut.keys) { [weak switcher] in switcher?.select(shortcut.index) }
        }
        return switcher
    }

    /// The tab this window is becomes the one shown (`true`) or another tab does: only the tab shown sets the
    /// title and Back, and menus with an anchor point at its web view.
    package func setShownInWindow(_ shown: Bool) {
        isShownInWindow = shown
        guard shown else { return }
        controls.attachAnchorView(webView)
        gtk_widget_set_visible(backButton, wantsBackButton ? 1 : 0)
        gtk_widget_grab_focus(webView.widget)
    }

    /// Runs `action` once, after the window's frame clock next paints a frame (one is asked for): when what was
    /// just changed in the window is on screen. Never while the window has no frame clock (not yet realized).
    package func afterNextFrame(_ action: @escaping @MainActor () -> Void) {
        guard let clock = gtk_widget_get_frame_clock(window) else { return }
        let handler = HandlerID()
        handler.value = onSignal(UnsafeMutableRawPointer(clock), "after-paint") {
            g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), handler.value)
            action()
        }
        gtk_widget_queue_draw(window)
    }
}
