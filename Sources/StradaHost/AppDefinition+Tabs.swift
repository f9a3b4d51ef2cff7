package import StradaCore
package import StradaNavigation

extension AppDefinition {
    /// Reads `"tabs"`: the app's tabs, in the view switcher's order, each with its own stack and web view
    /// (docs/apps.md, "Tabs"). At least two, and each URL an http(s) or file URL:
    ///
    /// ```json
    /// "tabs": [{"title": "Inbox", "icon": "mail-unread-symbolic", "url": "https://app.example/inbox"}, …]
    /// ```
    static func tabs(from value: JSON?, file: String) throws(AppDefinitionError) -> [TabDefinition] {
        func fail(_ reason: String) -> AppDefinitionError { AppDefinitionError(file: file, reason) }
        guard let value else { return [] }
        let shape = "{\"title\": \"Inbox\", \"icon\": \"mail-unread-symbolic\", \"url\": \"https://…\"}"
        guard case .array(let entries) = value, entries.count >= 2 else {
            throw fail("\"tabs\" must be an array of at least two tabs like \(shape) (one tab: leave \"tabs\" out)")
        }
        var tabs: [TabDefinition] = []
        for (index, entry) in entries.enumerated() {
            guard case .object(let fields) = entry else {
                throw fail("\"tabs\"[\(index)] must be an object like \(shape)")
            }
            for key in fields.keys.sorted() where !["title", "icon", "url"].contains(key) {
                throw fail("\"tabs\"[\(index)] has an unknown key \"\(key)\" (known: title, icon, url)")
            }
            func text(_ key: String, _ what: String) throws(AppDefinitionError) -> String {
                guard let field = fields[key]?.stringValue, !field.isEmpty else {
                    throw fail("\"tabs\"[\(index)] needs \"\(key)\": \(what)")
                }
                return field
            }
            let title = try text("title", "the text under its icon")
            let icon = try text("icon", "a symbolic icon name such as \"folder-symbolic\"")
            let url = try text("url", "the http(s) or file URL its stack starts at")
            guard let scheme = url.split(separator: ":").first?.lowercased(),
                ["http", "https", "file"].contains(scheme),
                OriginPolicy.origin(of: url) != nil
            else { throw fail("\"tabs\"[\(index)].\"url\" must be an http(s) or file URL (got \"\(url)\")") }
            tabs.append(TabDefinition(title: title, icon: icon, startURL: url))
        }
        return tabs
    }
}
