import Foundation
import Logging
import StradaCore
import Testing

@testable import StradaNavigation

/// The path configuration document: Hotwire Native's format, every matching rule in order with later ones
/// winning, query strings matched by default, the historical-location routes built in, and one clear line
/// for each kind of mistake.
@Suite struct PathConfigurationDocumentTests {
    static let document = """
        {
          "settings": {"feature_flags": [{"name": "new_onboarding", "enabled": true}]},
          "rules": [
            {"patterns": [".*"], "properties": {"context": "default", "pull_to_refresh_enabled": true}},
            {"patterns": ["/new$", "/edit$"], "properties": {"context": "modal", "pull_to_refresh_enabled": false}},
            {"patterns": ["/posts/\\\\d+$"], "properties": {"presentation": "replace", "my_own_key": [1, 2]}},
            {"patterns": [".*\\\\?.*tab=.*"], "properties": {"query_string_presentation": "replace"}}
          ]
        }
        """

    @Test func everyMatchingRuleAppliesInOrderAndLaterOnesWin() throws {
        let configuration = try PathConfiguration(json: Self.document)
        #expect(configuration.rules.count == 4)
        let root = configuration.properties(for: "https://app.example/")
        #expect(root.context == .default && root.presentation == .default)
        #expect(root.raw["pull_to_refresh_enabled"] == .bool(true))

        let new = configuration.properties(for: "https://app.example/posts/new")
        #expect(new.context == .modal)
        #expect(new.raw["pull_to_refresh_enabled"] == .bool(false))

        let post = configuration.properties(for: "https://app.example/posts/42")
        #expect(post.presentation == .replace && post.context == .default)
        // Keys Hotwire Native does not know are kept for plugins.
        #expect(post.raw["my_own_key"] == .array([.number(1), .number(2)]))
        #expect(configuration.settings["feature_flags"] != nil)
    }

    @Test func queryStringsAreMatchedUnlessTheSettingTurnsThatOff() throws {
        let configuration = try PathConfiguration(json: Self.document)
        // With a query string, "/new$" no longer matches the end of what patterns see (as upstream).
        #expect(configuration.properties(for: "https://app.example/posts/new?draft=1").context == .default)
        #expect(configuration.properties(for: "https://app.example/posts?tab=2").queryStringPresentation == .replace)

        let pathOnly = try PathConfiguration(
            json: Self.document.replacingOccurrences(
                of: #""settings": {"#, with: #""settings": {"match_query_strings": false, "#))
        #expect(!pathOnly.matchesQueryStrings)
        #expect(pathOnly.properties(for: "https://app.example/posts/new?draft=1").context == .modal)
        #expect(pathOnly.properties(for: "https://app.example/posts?tab=2").queryStringPresentation == .default)
    }

    @Test func theHistoricalLocationRoutesAreBuiltIn() throws {
        for configuration in [PathConfiguration(), try PathConfiguration(json: Self.document)] {
            let recede = configuration.properties(for: "https://app.example/recede_historical_location")
            #expect(recede.presentation == .pop && recede.isHistoricalLocation)
            #expect(
                configuration.properties(for: "https://app.example/resume_historical_location").presentation == .none)
            #expect(
                configuration.properties(for: "https://app.example/refresh_historical_location?x=1").presentation
                    == .refresh)
            #expect(!configuration.properties(for: "https://app.example/posts").isHistoricalLocation)
        }
    }

    @Test(arguments: [
        ("nope", "is not JSON"),
        ("[]", "must be a JSON object"),
        (#"{"settings": {}}"#, "has no \"rules\""),
        (#"{"rules": {}}"#, "\"rules\" must be an array"),
        (#"{"rules": [1]}"#, "rules[0] must be an object"),
        (#"{"rules": [{"properties": {}}]}"#, "rules[0] needs \"patterns\""),
        (#"{"rules": [{"patterns": [3]}]}"#, "rules[0].patterns[0] must be a string"),
        (#"{"rules": [{"patterns": ["("]}]}"#, "rules[0].patterns[0] \"(\" is not a valid regular expression"),
        (#"{"rules": [{"patterns": [".*"], "properties": []}]}"#, "rules[0].properties must be an object"),
        (
            #"{"rules": [{"patterns": [".*"], "properties": {"presentation": "sideways"}}]}"#,
            "rules[0].properties.presentation is \"sideways\"; use one of default, push, pop, replace, "
                + "replace_root, clear_all, refresh, none"
        ),
        (
            #"{"rules": [{"patterns": [".*"], "properties": {"context": "popover"}}]}"#,
            "rules[0].properties.context is \"popover\"; use one of default, modal"
        ),
        (
            #"{"rules": [{"patterns": [".*"], "properties": {"view_controller": 1}}]}"#,
            "view_controller must be a string"
        ),
        (#"{"settings": {"match_query_strings": "no"}, "rules": []}"#, "match_query_strings\" must be true or false"),
        (#"{"settings": {"error_routes": "/signin"}, "rules": []}"#, "error_routes\" must be an object"),
        (#"{"settings": {"error_routes": {"200": "/a"}}, "rules": []}"#, "use an HTTP error status, 400 to 599"),
        (#"{"settings": {"error_routes": {"401": ""}}, "rules": []}"#, "error_routes.401\" must be a path or URL"),
    ])
    func eachMistakeIsOneLineNamingTheKey(document: String, expected: String) {
        #expect {
            _ = try PathConfiguration(json: document)
        } throws: { error in
            let reason = (error as? PathConfigurationError)?.reason ?? ""
            return reason.contains(expected) && !reason.contains("\n")
        }
    }
}
