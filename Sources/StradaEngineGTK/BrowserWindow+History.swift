import CWebKitGTK
package import StradaNavigation

/// One entry of the web view's history (a full load or a pushState), compared by identity.
@MainActor
package final class HistoryItem: Equatable, HistoryEntry {
    nonisolated(unsafe) let item: OpaquePointer  // an immutable address, compared only

    init(_ item: OpaquePointer) {
        self.item = item
        g_object_ref(UnsafeMutableRawPointer(item))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(item)) }

    /// The entry's URL.
    package var url: String { webkit_back_forward_list_item_get_uri(item).map { String(cString: $0) } ?? "" }

    nonisolated package static func == (lhs: HistoryItem, rhs: HistoryItem) -> Bool { lhs.item == rhs.item }

    package func isSameEntry(as other: any HistoryEntry) -> Bool { (other as? HistoryItem)?.item == item }
}

/// The web view's history: the navigator's screens keep their entries, and Back goes to one.
extension BrowserWindow {
    /// The history entry shown now.
    package var currentHistoryEntry: (any HistoryEntry)? {
        let list = webkit_web_view_get_back_forward_list(webView.view)
        return webkit_back_forward_list_get_current_item(list).map(HistoryItem.init)
    }

    /// Whether `entry` is still in the web view's history (a replace drops the entry it replaced).
    package func historyContains(_ entry: any HistoryEntry) -> Bool {
        guard let item = entry as? HistoryItem else { return false }
        let list = webkit_web_view_get_back_forward_list(webView.view)
        if webkit_back_forward_list_get_current_item(list) == item.item { return true }
        for entries in [webkit_back_forward_list_get_back_list(list), webkit_back_forward_list_get_forward_list(list)] {
            var found = false
            var cursor = entries
            while let node = cursor {
                if OpaquePointer(node.pointee.data) == item.item { found = true }
                cursor = node.pointee.next
            }
            g_list_free(entries)
            if found { return true }
        }
        return false
    }

    /// Goes to `entry` in the web view's history (Back to a given screen), or one step back when `nil`.
    package func goBack(to entry: (any HistoryEntry)?) {
        if let item = entry as? HistoryItem {
            webkit_web_view_go_to_back_forward_list_item(webView.view, item.item)
        } else {
            webkit_web_view_go_back(webView.view)
        }
    }
}
