package import StradaCore

/// Something in a path configuration document that loads but does nothing here, or that another platform's
/// app reads differently: a property or setting the host does not use, or a trailing comma. A team sharing one
/// document between its iOS, Android and Linux apps is told once per document (one warning line,
/// `path-configuration.warning`), never per visit.
package struct PathConfigurationNotice: Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        /// A key another platform's Hotwire Native reads (`pull_to_refresh_enabled`, `fallback_uri`…).
        case otherPlatform = "other-platform"
        /// A key no Hotwire Native platform defines (kept: native screens and plugins still receive it).
        case unknown
        /// A trailing comma: read here as iOS reads it; Android's parser refuses it.
        case trailingComma = "trailing-comma"
    }

    package let kind: Kind
    /// Where the key is: `properties.pull_to_refresh_enabled`, `settings.feature_x`, `rule.note` (a key beside
    /// a rule's `patterns`); empty for a trailing comma.
    package let key: String
    /// The rules (0-based, in document order) that carry the key; empty for settings and commas.
    package let rules: [Int]
    /// The platforms that read the key (`iOS`, `Android`); empty for an unknown key.
    package let platforms: [String]
    /// Where a trailing comma is.
    package let position: JSONTextPosition?
    /// Why it does nothing here, in a few words.
    package let reason: String

    package var description: String {
        if let position { return "a trailing comma at \(position) (\(reason))" }
        let plural = rules.count == 1 ? "rule" : "rules"
        let place = rules.isEmpty ? "" : " in \(plural) \(rules.map(String.init).joined(separator: ", "))"
        let owners = platforms.isEmpty ? "" : platforms.joined(separator: " and ") + "'s: "
        return "\(key)\(place) (\(owners)\(reason))"
    }

    /// One object for the automation event.
    package var json: JSON {
        var object: JSONObject = ["kind": .string(kind.rawValue), "reason": .string(reason)]
        if !key.isEmpty { object["key"] = .string(key) }
        if !rules.isEmpty { object["rules"] = .array(rules.map { .number(Double($0)) }) }
        if !platforms.isEmpty { object["platforms"] = .array(platforms.map(JSON.string)) }
        if let position {
            object["line"] = .number(Double(position.line))
            object["column"] = .number(Double(position.column))
        }
        return .object(object)
    }
}

extension PathConfigurationNotice {
    /// The rule properties the host reads (PathProperties; `uri` names a native screen as `view_controller`
    /// does; `historical_location` is set by the built-in rules).
    static let usedProperties: Set<String> = [
        "context", "presentation", "query_string_presentation", "view_controller", "uri", "title", "modal_style",
        "width", "height", "historical_location",
    ]

    /// Properties other platforms read, with who reads them and why they do nothing here.
    static let otherPlatformProperties: [String: (platforms: [String], reason: String)] = [
        "pull_to_refresh_enabled": (["iOS", "Android"], "a desktop page reloads with F5 or Ctrl+R instead"),
        "animated": (["iOS", "Android"], "screens change without animation here"),
        "modal_dismiss_gesture_enabled": (["iOS"], "a modal here closes with Escape or its Cancel button"),
        "fallback_uri": (["Android"], "the web page is always the fallback here"),
    ]

    /// The settings the host reads.
    static let usedSettings: Set<String> = ["match_query_strings", "error_routes"]

    /// The notices for a document's `settings` and `rules` (as read), and the trailing commas found at
    /// `commas` (byte offsets in `text`). `comment`, the key upstream's documents use to annotate a rule, is
    /// not reported: every platform ignores it by design.
    static func notices(settings: JSONObject, rules: [JSON], commas: [Int], in text: String) -> [Self] {
        var properties: [String: [Int]] = [:]
        var ruleKeys: [String: [Int]] = [:]
        for (index, rule) in rules.enumerated() {
            guard case .object(let object) = rule else { continue }
            for key in object.keys where !["patterns", "properties", "comment"].contains(key) {
                ruleKeys[key, default: []].append(index)
            }
            guard case .object(let values)? = object["properties"] else { continue }
            for key in values.keys where !usedProperties.contains(key) && key != "comment" {
                properties[key, default: []].append(index)
            }
        }
        var notices: [Self] = properties.keys.sorted().map { key in
            if let known = otherPlatformProperties[key] {
                return Self(
                    kind: .otherPlatform, key: "properties.\(key)", rules: properties[key] ?? [],
                    platforms: known.platforms, position: nil, reason: known.reason)
            }
            return Self(
                kind: .unknown, key: "properties.\(key)", rules: properties[key] ?? [], platforms: [], position: nil,
                reason: "unknown to the host; native screens still receive it")
        }
        notices += ruleKeys.keys.sorted().map { key in
            Self(
                kind: .unknown, key: "rule.\(key)", rules: ruleKeys[key] ?? [], platforms: [], position: nil,
                reason: "a rule is read for its patterns and properties only")
        }
        notices += settings.keys.sorted().filter { !usedSettings.contains($0) }.map { key in
            Self(
                kind: .unknown, key: "settings.\(key)", rules: [], platforms: [], position: nil,
                reason: "not read by the host; plugins receive the settings")
        }
        notices += commas.map { offset in
            Self(
                kind: .trailingComma, key: "", rules: [], platforms: [],
                position: JSONTextPosition(offset: offset, in: text), reason: "read as iOS reads it; Android refuses it"
            )
        }
        return notices
    }
}
