import CWebKitGTK
import StradaCore

/// The search: one `GtkSearchBar` with its `GtkSearchEntry`, shown while a component has a search.
extension WindowControls {
    func setSearch(_ search: ControlSearch, onChange: @escaping @MainActor (String) -> Void) {
        let isNew = self.search?.search.id != search.id
        self.search = SearchEntry(search: search, onChange: onChange)
        strada_set_placeholder_text(searchEntry, search.placeholder)
        gtk_widget_set_visible(searchBar, 1)
        gtk_search_bar_set_search_mode(strada_gtk_search_bar(searchBar), 1)
        let snapshot = ControlSnapshot(search, text: currentSearchText)
        observer?(isNew ? .added(snapshot) : .changed(snapshot))
    }

    func removeSearch(id: String) {
        guard search?.search.id == id else { return }
        search = nil
        settingSearchText = true
        gtk_editable_set_text(strada_gtk_editable(searchEntry), "")
        settingSearchText = false
        gtk_search_bar_set_search_mode(strada_gtk_search_bar(searchBar), 0)
        gtk_widget_set_visible(searchBar, 0)
        observer?(.removed(id: id))
    }

    var currentSearchText: String {
        gtk_editable_get_text(strada_gtk_editable(searchEntry)).map { String(cString: $0) } ?? ""
    }

    /// The entry's "search-changed": reported, then handed to the search's handler.
    func searchChanged() {
        guard !settingSearchText, let search else { return }
        let text = currentSearchText
        observer?(.changed(ControlSnapshot(search.search, text: text)))
        search.onChange(text)
    }
}
