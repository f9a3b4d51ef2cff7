import StradaCore
import Testing

@testable import StradaNavigation

/// What a path configuration document holds that does nothing here: reported once per document by key, with
/// the rules that carry it and whose key it is; text that is not JSON named by line and column; trailing commas
/// read as iOS reads them, and reported.
@Suite struct PathConfigurationNoticeTests {
    /// The upstream demos' iOS and Android documents in one (a team sharing one file between platforms).
    static let shared = """
        {
          "settings": {"enable_feature_x": true, "match_query_strings": true},
          "rules": [
            {
              "patterns": [".*"],
              "properties": {"context": "default", "uri": "hotwire://fragment/web",
                             "fallback_uri": "hotwire://fragment/web", "pull_to_refresh_enabled": true}
            },
            {
              "patterns": ["/new$", "/edit$"],
              "properties": {"context": "modal", "uri": "hotwire://fragment/web/modal",
                             "pull_to_refresh_enabled": false,
                             "modal_style": "large", "modal_dismiss_gesture_enabled": false},
              "comment": "Present forms as modals."
            },
            {
              "patterns": ["/numbers$"],
              "properties": {"view_controller": "numbers", "uri": "hotwire://fragment/numbers", "title": "Numbers",
                             "my_flag": 1, "comment": "Intercept with a native view."},
              "note": "a key beside patterns"
            }
          ]
        }
        """

    @Test func eachIgnoredKeyIsReportedOnceWithItsRulesAndWhoseItIs() throws {
        let notices = try PathConfiguration(json: Self.shared).notices
        #expect(
            notices.map(\.key) == [
                "properties.fallback_uri", "properties.modal_dismiss_gesture_enabled", "properties.my_flag",
                "properties.pull_to_refresh_enabled", "rule.note", "settings.enable_feature_x",
            ])
        let byKey = Dictionary(uniqueKeysWithValues: notices.map { ($0.key, $0) })
        let pull = try #require(byKey["properties.pull_to_refresh_enabled"])
        #expect(pull.kind == .otherPlatform && pull.rules == [0, 1] && pull.platforms == ["iOS", "Android"])
        #expect(byKey["properties.fallback_uri"]?.platforms == ["Android"])
        #expect(byKey["properties.modal_dismiss_gesture_enabled"]?.platforms == ["iOS"])
        #expect(byKey["properties.my_flag"]?.kind == .unknown)
        #expect(byKey["properties.my_flag"]?.rules == [2])
        #expect(byKey["rule.note"]?.kind == .unknown)
        #expect(byKey["settings.enable_feature_x"]?.rules == [])
        #expect(pull.description.hasPrefix("properties.pull_to_refresh_enabled in rules 0, 1 (iOS and Android's: "))
        #expect(
            pull.json.objectValue?["rules"] == .array([.number(0), .number(1)])
                && pull.json.objectValue?["kind"] == .string("other-platform"))
    }

    @Test func aDocumentWithOnlyWhatTheHostReadsHasNoNotices() throws {
        let document = #"{"settings": {}, "rules": [{"patterns": ["/a"], "properties": {"presentation": "replace"}}]}"#
        #expect(try PathConfiguration(json: document).notices.isEmpty)
    }

    @Test func trailingCommasAreReadAsIOSReadsThemAndReportedWithTheirPlace() throws {
        let document = """
            {
              "rules": [
                {"patterns": ["/new$",], "properties": {"context": "modal",}},
              ],
            }
            """
        let configuration = try PathConfiguration(json: document)
        #expect(configuration.properties(for: "https://app.example/posts/new").context == .modal)
        let commas = configuration.notices.filter { $0.kind == .trailingComma }
        #expect(
            commas.map(\.position) == [
                JSONTextPosition(line: 3, column: 26), JSONTextPosition(line: 3, column: 63),
                JSONTextPosition(line: 3, column: 66), JSONTextPosition(line: 4, column: 4),
            ])
        #expect(commas.first?.description.hasPrefix("a trailing comma at line 3, column 26") == true)
        // A comma in a string is text, and two commas in a row are still an error.
        let inString = try PathConfiguration(json: #"{"rules": [{"patterns": ["a,]"]}]}"#)
        #expect(inString.rules[0].patterns == ["a,]"] && inString.notices.isEmpty)
        #expect(throws: PathConfigurationError.self) { try PathConfiguration(json: #"{"rules": [1,,]}"#) }
    }

    @Test(arguments: [
        // A truncated file: the end of the text.
        ("{\n  \"rules\": [\n    {\"patterns\": [\"/a\"]", "is not JSON: line 3, column 24: unexpected end of input"),
        // An HTML page where a document was expected.
        ("<!DOCTYPE html>\n<html>", "is not JSON: line 1, column 1: unexpected character"),
        // A missing comma on line 2; columns count characters, not bytes.
        ("{\"settings\": {\"é\": 1}\n  \"rules\": []}", "is not JSON: line 2, column 3: expected ',' or '}'"),
    ])
    func textThatIsNotJSONIsNamedByLineAndColumn(text: String, reason: String) {
        #expect(throws: PathConfigurationError.self) { try PathConfiguration(json: text) }
        do {
            _ = try PathConfiguration(json: text)
        } catch {
            #expect(error.reason == reason)
        }
    }

    @Test func androidsURINamesANativeScreenAsViewControllerDoesButItsWebDestinationsDoNot() throws {
        func names(_ properties: JSONObject) -> [String] { PathProperties(properties).nativeScreenNames }
        #expect(names(["uri": "hotwire://fragment/numbers"]) == ["hotwire://fragment/numbers", "numbers"])
        #expect(names(["uri": "hotwire://fragment/web"]) == [])
        #expect(names(["uri": "hotwire://fragment/web/modal"]) == [])
        #expect(names(["view_controller": "numbers", "uri": "hotwire://fragment/other"]) == ["numbers"])
        #expect(names([:]) == [])
        #expect(throws: PathConfigurationError.self) {
            try PathConfiguration(json: #"{"rules": [{"patterns": ["/a"], "properties": {"uri": 3}}]}"#)
        }
    }
}
