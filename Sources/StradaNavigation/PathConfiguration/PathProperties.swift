import Foundation
package import StradaCore

/// The properties of the rules that matched a URL, with upstream's meaning for the keys Hotwire Native knows;
/// every other key is kept (``raw``) and handed to plugins.
package struct PathProperties: Sendable, Equatable {
    /// Where a visit is shown: the main stack, or a modal over it.
    package enum Context: String, Sendable, CaseIterable {
        case `default`, modal
    }

    /// What a visit does to its stack.
    package enum Presentation: String, Sendable, CaseIterable {
        case `default`, push, pop, replace, replaceRoot = "replace_root", clearAll = "clear_all", refresh, none
    }

    /// Whether a visit that differs from the screen shown only in its query string replaces it.
    package enum QueryStringPresentation: String, Sendable, CaseIterable {
        case `default`, replace
    }

    /// Every property, as the rules gave it.
    package let raw: JSONObject

    package init(_ raw: JSONObject = [:]) { self.raw = raw }

    package var context: Context { raw["context"]?.stringValue.flatMap(Context.init(rawValue:)) ?? .default }
    package var presentation: Presentation {
        raw["presentation"]?.stringValue.flatMap(Presentation.init(rawValue:)) ?? .default
    }
    package var queryStringPresentation: QueryStringPresentation {
        raw["query_string_presentation"]?.stringValue.flatMap(QueryStringPresentation.init(rawValue:)) ?? .default
    }
    /// A native screen a plugin provides instead of the web page (iOS's key).
    package var viewController: String? { raw["view_controller"]?.stringValue }
    /// Android's name for the screen a visit shows: a destination URI such as `hotwire://fragment/numbers`
    /// (`hotwire://fragment/web` and the like name Android's web screen).
    package var uri: String? { raw["uri"]?.stringValue }

    /// The names a plugin's native screen may have for this visit, in order: iOS's `view_controller`; else
    /// Android's `uri` itself, then its last path segment (`hotwire://fragment/numbers` → `numbers`, the name
    /// the same screen has under `view_controller` in the iOS document). Empty: the web page — also for
    /// Android's web destinations, whose path starts with `web` (`hotwire://fragment/web`, `…/web/modal`):
    /// Android documents name one on nearly every rule, and looking each up would open every plugin.
    package var nativeScreenNames: [String] {
        if let viewController { return [viewController] }
        guard let uri, !uri.isEmpty else { return [] }
        let path = (URLComponents(string: uri)?.path ?? uri).split(separator: "/")
        if path.first == "web" { return [] }
        let segment = path.last.map(String.init)
        return segment.map { $0 == uri ? [uri] : [uri, $0] } ?? [uri]
    }
    /// A title for the screen before (or instead of) the page's own.
    package var title: String? { raw["title"]?.stringValue }
    /// One of turbo-rails' historical-location routes.
    package var isHistoricalLocation: Bool { raw["historical_location"] == .bool(true) }

    /// The size of a modal over a window of `parent` size: `width` and `height` (pixels) if the rule gives
    /// them, else by `modal_style` — `large` (the default) 80 % of the window, `medium`, `page_sheet` and
    /// `form_sheet` 60 %, `full` the window's size. Never smaller than 360 × 240.
    package func modalSize(over parent: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let share: Double =
            switch raw["modal_style"]?.stringValue {
            case "full": 1.0
            case "medium", "page_sheet", "form_sheet": 0.6
            default: 0.8
            }
        func pixels(_ key: String, _ fallback: Int) -> Int {
            if case .number(let value)? = raw[key], value >= 1 { return Int(value) }
            return fallback
        }
        let width = pixels("width", Int(Double(parent.width) * share))
        let height = pixels("height", Int(Double(parent.height) * share))
        return (max(width, 360), max(height, 240))
    }

    /// The properties as one JSON object.
    package var json: JSON { .object(raw) }

    /// Checks the values of the keys with a known meaning; other keys may hold anything.
    static func validate(_ raw: JSONObject, at place: String) throws(PathConfigurationError) {
        func check<Value: RawRepresentable & CaseIterable>(_ key: String, _: Value.Type) throws(PathConfigurationError)
        where Value.RawValue == String {
            guard let value = raw[key] else { return }
            let allowed = Value.allCases.map(\.rawValue)
            guard let text = value.stringValue, allowed.contains(text) else {
                throw PathConfigurationError(
                    "\(place).\(key) is \(value.serialized()); use one of \(allowed.joined(separator: ", "))")
            }
        }
        try check("context", Context.self)
        try check("presentation", Presentation.self)
        try check("query_string_presentation", QueryStringPresentation.self)
        for key in ["view_controller", "uri", "title"] where raw[key] != nil && raw[key]?.stringValue == nil {
            throw PathConfigurationError("\(place).\(key) must be a string")
        }
    }
}
