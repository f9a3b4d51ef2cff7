/// A native control (other than a header-bar button) described as JSON, the form it takes across the
/// plugin ABI (`strada_controls.h`). Both the host and the Swift SDK use this one mapping.
package enum ControlSpec: Sendable, Equatable {
    case menu(ControlMenu)
    case alert(ControlAlert)
    case search(ControlSearch)
    case toast(String)
    case title(String?, subtitle: String?)
    case clipboard(String)
    case colorScheme(ColorScheme)
    case openURL(String)

    /// Reads the spec of control `id`; the error names the field that is wrong.
    package init(id: String, json: JSON) throws(MalformedMessage) {
        guard let kind = json["kind"]?.stringValue else {
            throw MalformedMessage(reason: "a control spec needs a string \"kind\"")
        }
        func string(_ key: String) -> String? { json[key]?.stringValue }
        func required(_ key: String) throws(MalformedMessage) -> String {
            guard let value = string(key) else {
                throw MalformedMessage(reason: "a \(kind) control needs a string \"\(key)\"")
            }
            return value
        }
        switch kind {
        case "menu":
            guard case .array(let items)? = json["items"] else {
                throw MalformedMessage(reason: "a menu control needs an array \"items\"")
            }
            var parsed: [ControlMenu.Item] = []
            for (position, item) in items.enumerated() {
                guard let title = item["title"]?.stringValue else {
                    throw MalformedMessage(reason: "menu item \(position) needs a string \"title\"")
                }
                var index = position
                if case .number(let value)? = item["index"] { index = Int(value) }
                parsed.append(.init(title: title, index: index))
            }
            var anchor: ControlAnchor?
            if let source = json["anchor"], case .number(let x)? = source["x"], case .number(let y)? = source["y"] {
                var width = 1.0, height = 1.0
                if case .number(let value)? = source["width"] { width = value }
                if case .number(let value)? = source["height"] { height = value }
                anchor = ControlAnchor(x: x, y: y, width: width, height: height)
            }
            self = .menu(
                ControlMenu(
                    id: id, title: string("title") ?? "", items: parsed, anchor: anchor,
                    anchorButton: string("anchorButton")))
        case "alert":
            var destructive = false
            if case .bool(let value)? = json["destructive"] { destructive = value }
            self = .alert(
                ControlAlert(
                    id: id, title: try required("title"), message: string("message"),
                    confirmTitle: string("confirm") ?? "OK",
                    dismissTitle: string("dismiss") ?? "Cancel", isDestructive: destructive))
        case "search": self = .search(ControlSearch(id: id, placeholder: string("placeholder") ?? "Search"))
        case "toast": self = .toast(try required("message"))
        case "title": self = .title(string("title"), subtitle: string("subtitle"))
        case "clipboard": self = .clipboard(try required("text"))
        case "colorScheme":
            guard let scheme = string("scheme").flatMap(ColorScheme.init(rawValue:)) else {
                throw MalformedMessage(reason: "a colorScheme control needs \"scheme\": light, dark or system")
            }
            self = .colorScheme(scheme)
        case "openURL": self = .openURL(try required("url"))
        default: throw MalformedMessage(reason: "unknown control kind \"\(kind)\"")
        }
    }

    /// The spec as JSON.
    package var json: JSON {
        switch self {
        case .menu(let menu):
            var fields: JSONObject = [
                "kind": "menu", "title": .string(menu.title),
                "items": .array(menu.items.map { ["title": .string($0.title), "index": .number(Double($0.index))] }),
            ]
            if let anchor = menu.anchor {
                fields["anchor"] = [
                    "x": .number(anchor.x), "y": .number(anchor.y), "width": .number(anchor.width),
                    "height": .number(anchor.height),
                ]
            }
            if let button = menu.anchorButton { fields["anchorButton"] = .string(button) }
            return .object(fields)
        case .alert(let alert):
            return [
                "kind": "alert", "title": .string(alert.title), "message": alert.message.map(JSON.string) ?? .null,
                "confirm": .string(alert.confirmTitle), "dismiss": .string(alert.dismissTitle),
                "destructive": .bool(alert.isDestructive),
            ]
        case .search(let search): return ["kind": "search", "placeholder": .string(search.placeholder)]
        case .toast(let message): return ["kind": "toast", "message": .string(message)]
        case .title(let title, let subtitle):
            return [
                "kind": "title", "title": title.map(JSON.string) ?? .null,
                "subtitle": subtitle.map(JSON.string) ?? .null,
            ]
        case .clipboard(let text): return ["kind": "clipboard", "text": .string(text)]
        case .colorScheme(let scheme): return ["kind": "colorScheme", "scheme": .string(scheme.rawValue)]
        case .openURL(let url): return ["kind": "openURL", "url": .string(url)]
        }
    }
}

/// What happened to a control, as it crosses the plugin ABI (`strada_control_events_v1`).
package enum ControlEvent: Sendable, Equatable {
    case chosen(Int)
    case dismissed
    case confirmed
    case changed(String)

    package var json: JSON {
        switch self {
        case .chosen(let index): ["type": "chosen", "index": .number(Double(index))]
        case .dismissed: ["type": "dismissed"]
        case .confirmed: ["type": "confirmed"]
        case .changed(let text): ["type": "changed", "text": .string(text)]
        }
    }

    package init?(json: JSON) {
        switch json["type"]?.stringValue {
        case "chosen":
            guard case .number(let index)? = json["index"] else { return nil }
            self = .chosen(Int(index))
        case "dismissed": self = .dismissed
        case "confirmed": self = .confirmed
        case "changed": self = .changed(json["text"]?.stringValue ?? "")
        default: return nil
        }
    }
}

extension ComponentControls {
    /// Shows the control `spec` describes; `onEvent` gets what happens to it (menus, alerts, searches).
    package func show(_ spec: ControlSpec, onEvent: @escaping @MainActor (ControlEvent) -> Void) {
        switch spec {
        case .menu(let menu): presentMenu(menu) { onEvent($0.map(ControlEvent.chosen) ?? .dismissed) }
        case .alert(let alert): presentAlert(alert) { onEvent($0 ? .confirmed : .dismissed) }
        case .search(let search): setSearch(search) { onEvent(.changed($0)) }
        case .toast(let message): showToast(message)
        case .title(let title, let subtitle): setWindowTitle(title, subtitle: subtitle)
        case .clipboard(let text): copyToClipboard(text)
        case .colorScheme(let scheme): setColorScheme(scheme)
        case .openURL(let url): openInBrowser(url)
        }
    }
}
