import CWebKitGTK
package import StradaNavigation

/// The view switcher of an app with tabs, as libadwaita 1.2 has it: an `AdwViewStack` with one page per tab
/// under the header bar, an `AdwViewSwitcherTitle` as the header bar's title (the tabs' titles and icons when
/// the window is wide, the page title when narrow) and an `AdwViewSwitcherBar` at the bottom, revealed when
/// the title has no room for the switcher. Each page starts as an empty box; a tab's content (its web view,
/// error and native screens) is put in it the first time the tab is selected (lazy tabs).
@MainActor
package final class TabSwitcher {
    /// The view stack, the switcher title (the header bar's title widget) and the switcher bar, owned.
    private let owned: (stack: WidgetRef, title: WidgetRef, bar: WidgetRef)
    var stack: UnsafeMutablePointer<GtkWidget> { owned.stack.pointer }
    var title: UnsafeMutablePointer<GtkWidget> { owned.title.pointer }
    var bar: UnsafeMutablePointer<GtkWidget> { owned.bar.pointer }
    /// The tabs' titles, in order.
    let titles: [String]
    private var pages: [WidgetRef] = []
    private var filled: Set<Int> = []
    /// The user (or ``select(_:)``) switched to tab `index`.
    package var onSelect: (@MainActor (_ index: Int) -> Void)?

    init(tabs: [TabDefinition]) {
        titles = tabs.map(\.title)
        let stack = adw_view_stack_new()!
        gtk_widget_set_vexpand(stack, 1)
        for (index, tab) in tabs.enumerated() {
            let page = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            let stackPage = adw_view_stack_add_titled(strada_adw_view_stack(stack), page, Self.name(index), tab.title)
            adw_view_stack_page_set_icon_name(stackPage, tab.icon)
            pages.append(WidgetRef(page))
        }
        let title = adw_view_switcher_title_new()!
        adw_view_switcher_title_set_stack(strada_adw_view_switcher_title(title), strada_adw_view_stack(stack))
        let bar = adw_view_switcher_bar_new()!
        adw_view_switcher_bar_set_stack(strada_adw_view_switcher_bar(bar), strada_adw_view_stack(stack))
        owned = (WidgetRef(stack), WidgetRef(title), WidgetRef(bar))
        // The bar shows when the title has no room for the switcher (a narrow window), as libadwaita's docs say.
        g_object_bind_property(
            UnsafeMutableRawPointer(title), "title-visible", UnsafeMutableRawPointer(bar), "reveal",
            G_BINDING_SYNC_CREATE)
        onPointerSignal(UnsafeMutableRawPointer(stack), "notify::visible-child-name") { [weak self] _ in
            guard let self, let index = self.visibleIndex else { return }
            self.onSelect?(index)
        }
    }

    /// The tab shown.
    package var visibleIndex: Int? {
        guard let name = adw_view_stack_get_visible_child_name(strada_adw_view_stack(stack)) else { return nil }
        return Int(String(cString: name).dropFirst("tab-".count))
    }

    /// Shows tab `index` (``onSelect`` sees it, as for a click on the switcher).
    package func select(_ index: Int) {
        guard pages.indices.contains(index) else { return }
        adw_view_stack_set_visible_child_name(strada_adw_view_stack(stack), Self.name(index))
    }

    /// Puts `window`'s content (a tab of the main window: ``BrowserWindow/init(tabOf:)``) in tab `index`'s page.
    package func fill(_ index: Int, with window: BrowserWindow) {  // its content has no parent yet
        guard pages.indices.contains(index), filled.insert(index).inserted else { return }
        let widget = window.content.widget
        gtk_widget_set_vexpand(widget, 1)
        gtk_box_append(strada_gtk_box(pages[index].pointer), widget)
    }

    /// Sets the title shown when the switcher has no room (a narrow window), and its subtitle.
    func setTitle(_ text: String, subtitle: String?) {
        adw_view_switcher_title_set_title(strada_adw_view_switcher_title(title), text)
        adw_view_switcher_title_set_subtitle(strada_adw_view_switcher_title(title), subtitle ?? "")
    }

    private static func name(_ index: Int) -> String { "tab-\(index)" }
}
