package import StradaCore

/// A native control as the automation channel sees it: id, kind and kind-specific properties.
package struct ControlSnapshot: Sendable, Equatable {
    package let id: String
    /// "button", "menu", "dialog", "search", "file-chooser", "print", or one of the window's own.
    package let kind: String
    package let properties: JSONObject

    package var json: JSON {
        var fields = properties
        fields["id"] = .string(id)
        fields["kind"] = .string(kind)
        return .object(fields)
    }
}

/// A change to the native controls, reported to the automation channel.
package enum ControlChange: Sendable {
    case added(ControlSnapshot)
    case changed(ControlSnapshot)
    case removed(id: String)
    case toast(String)
    case windowTitle(title: String, subtitle: String?)
    case clipboard(String)
    case colorScheme(ColorScheme)
    case openedInBrowser(String)
    /// A URL of another scheme (`mailto:`, `tel:`, …) was handed to the system.
    case openedWithSystem(String)
    /// A print job to a PDF file ended: `error` nil when `path` is written.
    case printed(path: String, error: String?)
}

/// Why an automation action on a control failed.
package enum ControlActionError: Error, CustomStringConvertible, Sendable {
    case noSuchControl(String)
    case disabled(String)
    case wrongKind(String, expected: String, actual: String)
    case noSuchItem(String, Int)
    /// The control cannot take that answer: why.
    case refused(String, String)

    package var description: String {
        switch self {
        case .noSuchControl(let id): "no native control with id \"\(id)\""
        case .disabled(let id): "native control \"\(id)\" is disabled"
        case .wrongKind(let id, let expected, let actual): "native control \"\(id)\" is a \(actual), not a \(expected)"
        case .noSuchItem(let id, let index): "menu \"\(id)\" has no item with index \(index)"
        case .refused(let id, let reason): "native control \"\(id)\": \(reason)"
        }
    }
}

// The snapshots of each kind. Menus, dialogs and searches are ControlSpec's JSON (the plugin ABI's one
// mapping), so the automation channel and the ABI cannot drift apart.
extension ControlSnapshot {
    /// A header-bar button: ``HeaderButton/json`` (`title`, `icon`, `enabled`, `placement`, `style`).
    init(_ button: HeaderButton) {
        self.init(id: button.id, kind: "button", properties: button.json)
    }

    /// A menu: `title`, `items` (`title`, `index`), when it points into the page `anchor`, and `pointsAt`: the
    /// header-bar button it hangs from (its id), `page` (the anchor) or `title` (the window title).
    init(_ menu: ControlMenu, pointsAt: String? = nil) {
        self.init(
            id: menu.id, kind: "menu", spec: .menu(menu), adding: pointsAt.map { ["pointsAt": .string($0)] } ?? [:])
    }

    /// An alert, kind "dialog": `title`, `message`, `confirm`, `dismiss`, `destructive`.
    init(_ alert: ControlAlert) {
        self.init(id: alert.id, kind: "dialog", spec: .alert(alert))
    }

    /// The search: `placeholder` and the entry's `text` now.
    init(_ search: ControlSearch, text: String) {
        self.init(id: search.id, kind: "search", spec: .search(search), adding: ["text": .string(text)])
    }

    /// `spec`'s fields, in its order, less two that are not the automation channel's: the spec's own `kind`
    /// (`json` appends the snapshot's) and a menu's `anchorButton` (where a component placed it), then `extra`.
    private init(id: String, kind: String, spec: ControlSpec, adding extra: JSONObject = [:]) {
        var properties = spec.json.objectValue ?? [:]
        properties["kind"] = nil
        properties["anchorButton"] = nil
        for (key, value) in extra { properties[key] = value }
        self.init(id: id, kind: kind, properties: properties)
    }
}
