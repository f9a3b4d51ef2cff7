public import StradaCore

/// A native control as the automation channel sees it: id, kind and kind-specific properties.
public struct ControlSnapshot: Sendable, Equatable {
    public let id: String
    /// "button", "menu", "dialog" or "search".
    public let kind: String
    public let properties: JSONObject

    public var json: JSON {
        var fields = properties
        fields["id"] = .string(id)
        fields["kind"] = .string(kind)
        return .object(fields)
    }
}

/// A change to the native controls, reported to the automation channel.
public enum ControlChange: Sendable {
    case added(ControlSnapshot)
    case changed(ControlSnapshot)
    case removed(id: String)
    case toast(String)
    case windowTitle(title: String, subtitle: String?)
    case clipboard(String)
    case colorScheme(ColorScheme)
    case openedInBrowser(String)
}

/// Why an automation action on a control failed.
public enum ControlActionError: Error, CustomStringConvertible, Sendable {
    case noSuchControl(String)
    case disabled(String)
    case wrongKind(String, expected: String, actual: String)
    case noSuchItem(String, Int)

    public var description: String {
        switch self {
        case .noSuchControl(let id): "no native control with id \"\(id)\""
        case .disabled(let id): "native control \"\(id)\" is disabled"
        case .wrongKind(let id, let expected, let actual): "native control \"\(id)\" is a \(actual), not a \(expected)"
        case .noSuchItem(let id, let index): "menu \"\(id)\" has no item with index \(index)"
        }
    }
}
