import Foundation
package import StradaCore

/// A Hotwire Native path configuration: app `settings` and navigation `rules`, in the JSON format the same
/// app's iOS and Android builds read — `{"settings": {…}, "rules": [{"patterns": [regex…], "properties":
/// {…}}]}`. Every rule whose patterns match a URL applies, in order; a later rule's properties win.
package struct PathConfiguration: Sendable {
    /// The app's own settings (feature flags and the like), handed to plugins unchanged. One key is ours:
    /// `"match_query_strings": false` matches patterns against the path alone (upstream's app-code switch).
    package let settings: JSONObject
    /// The document's rules, in order.
    package let rules: [PathRule]
    /// What in the document does nothing here (another platform's keys, unknown keys, trailing commas), in
    /// document order by kind; the host says it once per document.
    package let notices: [PathConfigurationNotice]

    /// An empty configuration: no settings, no rules of the app's (the historical-location rules still apply).
    package init() {
        settings = [:]
        rules = []
        notices = []
    }

    /// Reads a path configuration document. The error names the key that is wrong and says what to write, or
    /// for text that is not JSON the line and column. Trailing commas are read as iOS reads them
    /// (``TrailingCommas``) and reported in ``notices``.
    package init(json text: String) throws(PathConfigurationError) {
        let document: JSON
        let (strict, commas) = TrailingCommas.blanked(in: text)
        do {
            document = try JSON(parsing: strict)
        } catch {
            throw PathConfigurationError("is not JSON: \(error.position(in: text)): \(error.reason)")
        }
        guard case .object(let object) = document else {
            throw PathConfigurationError("must be a JSON object with \"settings\" and \"rules\"")
        }
        switch object["settings"] {
        case .object(let settings)?: self.settings = settings
        case nil, .null?: self.settings = [:]
        default: throw PathConfigurationError("\"settings\" must be an object")
        }
        guard let rulesValue = object["rules"] else {
            throw PathConfigurationError("has no \"rules\" (an array of {\"patterns\": […], \"properties\": {…}})")
        }
        guard case .array(let rules) = rulesValue else { throw PathConfigurationError("\"rules\" must be an array") }
        var parsed: [PathRule] = []
        for (index, rule) in rules.enumerated() {
            parsed.append(try PathRule(rule, at: "rules[\(index)]"))
        }
        self.rules = parsed
        if case .bool? = settings["match_query_strings"] {
        } else if settings["match_query_strings"] != nil {
            throw PathConfigurationError("\"settings.match_query_strings\" must be true or false")
        }
        try Self.checkErrorRoutes(settings)
        notices = PathConfigurationNotice.notices(settings: settings, rules: rules, commas: commas, in: text)
    }

    /// Where a visit that failed with HTTP `status` goes instead of only its error screen: `settings.error_routes`
    /// (`{"401": "/signin?return_to={url}"}`, ours: upstream apps do this in their own code), or `nil`.
    package func errorRoute(for status: Int) -> String? {
        settings["error_routes"]?[String(status)]?.stringValue
    }

    /// `settings.error_routes` maps HTTP error statuses (400–599) to paths or URLs.
    private static func checkErrorRoutes(_ settings: JSONObject) throws(PathConfigurationError) {
        guard let routes = settings["error_routes"] else { return }
        guard case .object(let object) = routes else {
            throw PathConfigurationError(#""settings.error_routes" must be an object, e.g. {"401": "/signin"}"#)
        }
        for (key, value) in object {
            guard let status = Int(key), (400...599).contains(status) else {
                let shown = JSON.string(key).serialized()
                throw PathConfigurationError(
                    "\"settings.error_routes\" has the key \(shown); use an HTTP error status, 400 to 599")
            }
            guard value.stringValue?.isEmpty == false else {
                throw PathConfigurationError("\"settings.error_routes.\(key)\" must be a path or URL, e.g. \"/signin\"")
            }
        }
    }

    /// Whether patterns see the query string too (the default, as upstream's).
    package var matchesQueryStrings: Bool {
        if case .bool(let value)? = settings["match_query_strings"] { return value }
        return true
    }

    /// The properties for a visit to `url`: every matching rule's, in order, later ones winning; then the
    /// historical-location routes turbo-rails redirects to, which always apply.
    package func properties(for url: String) -> PathProperties {
        let subject = Self.matchSubject(of: url, query: matchesQueryStrings)
        var merged: JSONObject = [:]
        for rule in rules + Self.historicalLocationRules where rule.matches(subject) {
            for (key, value) in rule.properties { merged[key] = value }
        }
        return PathProperties(merged)
    }

    /// What patterns are matched against: the path, and `?query` unless query strings are not matched.
    static func matchSubject(of url: String, query: Bool) -> String {
        guard let components = URLComponents(string: url) else { return url }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        guard query, let query = components.percentEncodedQuery else { return path }
        return path + "?" + query
    }

    /// turbo-rails' routes for native apps (`recede_or_redirect_to` and friends): pop, stay, refresh.
    static let historicalLocationRules: [PathRule] = [
        ("recede", "pop"), ("resume", "none"), ("refresh", "refresh"),
    ].map { name, presentation in
        PathRule(
            trusted: "/\(name)_historical_location(\\?.*)?$",
            properties: [
                "presentation": .string(presentation), "context": .string("default"),
                "historical_location": .bool(true),
            ])
    }
}

/// One rule: regular-expression `patterns` (searched in the URL's path and query, as upstream's) and the
/// `properties` it gives a visit that matches any of them.
package struct PathRule: Sendable {
    package let patterns: [String]
    package let properties: JSONObject
    private let expressions: [Expression]

    /// NSRegularExpression is immutable and thread-safe once made.
    private struct Expression: @unchecked Sendable {
        let regex: NSRegularExpression
    }

    init(_ value: JSON, at place: String) throws(PathConfigurationError) {
        guard case .object(let object) = value else {
            throw PathConfigurationError("\(place) must be an object with \"patterns\" and \"properties\"")
        }
        var patterns: [String] = []
        switch object["patterns"] {
        case .array(let items)?:
            for (index, item) in items.enumerated() {
                guard let pattern = item.stringValue else {
                    throw PathConfigurationError("\(place).patterns[\(index)] must be a string (a regular expression)")
                }
                patterns.append(pattern)
            }
        case .string(let pattern)?: patterns = [pattern]
        default:
            throw PathConfigurationError("\(place) needs \"patterns\": an array of regular expressions")
        }
        switch object["properties"] {
        case .object(let properties)?: self.properties = properties
        case nil: self.properties = [:]
        default: throw PathConfigurationError("\(place).properties must be an object")
        }
        var expressions: [Expression] = []
        for (index, pattern) in patterns.enumerated() {
            do {
                expressions.append(Expression(regex: try NSRegularExpression(pattern: pattern)))
            } catch {
                throw PathConfigurationError(
                    "\(place).patterns[\(index)] \(JSON.string(pattern).serialized()) is not a valid regular expression"
                )
            }
        }
        self.patterns = patterns
        self.expressions = expressions
        try PathProperties.validate(self.properties, at: "\(place).properties")
    }

    /// A rule of our own (its pattern is known to compile).
    init(trusted pattern: String, properties: JSONObject) {
        patterns = [pattern]
        self.properties = properties
        // swift-format-ignore: NeverUseForceTry
        expressions = [Expression(regex: try! NSRegularExpression(pattern: pattern))]
    }

    func matches(_ subject: String) -> Bool {
        let range = NSRange(subject.startIndex..., in: subject)
        return expressions.contains { $0.regex.firstMatch(in: subject, range: range) != nil }
    }
}

/// A path configuration that cannot be used, and why: one line naming the key and what to write instead.
package struct PathConfigurationError: Error, CustomStringConvertible, Sendable {
    package let reason: String
    package init(_ reason: String) { self.reason = reason }
    package var description: String { reason }
}
