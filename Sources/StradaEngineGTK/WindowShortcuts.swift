package import StradaCore

/// The window's keyboard shortcuts, written once: the keys the window answers to and what the Keyboard
/// Shortcuts window (`GtkShortcutsWindow`, Ctrl+?) lists. Keys are in GTK's accelerator syntax
/// (`<Control>q`), each alternative its own string. Plain Swift; `BrowserWindow+Desktop` installs the
/// triggers and shows the window built from ``builderXML(developer:)``.
package enum WindowShortcuts {
    /// One shortcut: what it does and its keys.
    package struct Shortcut: Sendable, Equatable {
        package let title: String
        package let keys: [String]
    }

    /// A titled group of shortcuts.
    package struct Group: Sendable, Equatable {
        package let title: String
        package let shortcuts: [Shortcut]
    }

    package static let primaryMenu = Shortcut(title: "Primary Menu", keys: ["F10"])
    package static let showShortcuts = Shortcut(title: "Keyboard Shortcuts", keys: ["<Control>question"])
    package static let closeWindow = Shortcut(title: "Close Window", keys: ["<Control>w"])
    package static let quit = Shortcut(title: "Quit", keys: ["<Control>q"])
    package static let back = Shortcut(title: "Back", keys: ["<Alt>Left"])
    package static let reload = Shortcut(title: "Reload", keys: ["<Control>r", "F5"])
    package static let inspector = Shortcut(title: "Web Inspector", keys: ["F12", "<Control><Shift>i"])

    /// The groups the shortcuts window shows; the inspector only in developer mode; with `tabs` (an app with
    /// tabs: their titles), Ctrl+1 … Ctrl+9 for the first nine.
    package static func groups(developer: Bool, tabs: [String] = []) -> [Group] {
        let tabKeys = tabs.prefix(9).enumerated().map { Shortcut(title: "Show \($1)", keys: ["<Control>\($0 + 1)"]) }
        return [
            Group(title: "General", shortcuts: [primaryMenu, showShortcuts, closeWindow, quit]),
            Group(title: "Navigation", shortcuts: [back, reload]),
        ] + (tabKeys.isEmpty ? [] : [Group(title: "Tabs", shortcuts: tabKeys)])
            + (developer ? [Group(title: "Developer", shortcuts: [inspector])] : [])
    }

    /// The shortcuts window as GtkBuilder XML (GTK 4.8 builds its sections only from a builder), its id
    /// `shortcuts`.
    package static func builderXML(developer: Bool, tabs: [String] = []) -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        func property(_ name: String, _ value: String) -> String {
            "<property name=\"\(name)\">\(escaped(value))</property>"
        }
        func object(_ type: String, id: String? = nil, _ content: [String]) -> [String] {
            let open = id.map { "<object class=\"\(type)\" id=\"\($0)\">" } ?? "<object class=\"\(type)\">"
            return [open] + content.map { "  " + $0 } + ["</object>"]
        }
        func child(_ lines: [String]) -> [String] { ["<child>"] + lines.map { "  " + $0 } + ["</child>"] }
        let groups = groups(developer: developer, tabs: tabs).flatMap { group in
            child(
                object(
                    "GtkShortcutsGroup",
                    [property("title", group.title)]
                        + group.shortcuts.flatMap { shortcut in
                            child(
                                object(
                                    "GtkShortcutsShortcut",
                                    [
                                        property("title", shortcut.title),
                                        property("accelerator", shortcut.keys.joined(separator: " ")),
                                    ]))
                        }))
        }
        let section = object("GtkShortcutsSection", [property("section-name", "shortcuts")] + groups)
        let window = object("GtkShortcutsWindow", id: "shortcuts", [property("modal", "1")] + child(section))
        let lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#, "<interface>"] + window.map { "  " + $0 }
        return (lines + ["</interface>"]).joined(separator: "\n") + "\n"
    }

    /// The shortcuts window's control properties on the automation channel: `groups`, each a `title` and its
    /// `shortcuts` (`title`, `keys`).
    package static func json(developer: Bool, tabs: [String] = []) -> JSONObject {
        let groups = groups(developer: developer, tabs: tabs).map { group -> JSON in
            let shortcuts = group.shortcuts.map { shortcut -> JSON in
                ["title": .string(shortcut.title), "keys": .array(shortcut.keys.map(JSON.string))]
            }
            return ["title": .string(group.title), "shortcuts": .array(shortcuts)]
        }
        return ["groups": .array(groups)]
    }
}
