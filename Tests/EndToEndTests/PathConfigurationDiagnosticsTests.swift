import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// What the real host says about a path configuration it reads: a document shared with the iOS and Android
/// apps loads, with one `path-configuration.warning` listing exactly what does nothing here (Android's `uri`
/// names the plugin's native screen as iOS's `view_controller` does); a document that is not JSON — a
/// truncated file, a server's HTML page — is named by line and column, with its source.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct PathConfigurationDiagnosticsTests {
    /// iOS's and Android's keys in one document, as a team sharing one file writes it, with a trailing comma.
    static let shared = """
        {
          "settings": {"enable_feature_x": true},
          "rules": [
            {
              "patterns": [".*"],
              "properties": {"context": "default", "uri": "hotwire://fragment/web",
                             "fallback_uri": "hotwire://fragment/web", "pull_to_refresh_enabled": true}
            },
            {
              "patterns": ["/new$"],
              "properties": {"context": "modal", "modal_style": "large", "modal_dismiss_gesture_enabled": false},
              "comment": "Forms are modals."
            },
            {
              "patterns": ["/settings$"],
              "properties": {"uri": "hotwire://fragment/settings", "title": "Settings"}
            },
          ]
        }
        """

    @Test func aSharedDocumentLoadsWithOneWarningListingWhatDoesNothingHereAndItsURIIsANativeScreen() async throws {
        let server = try await RouteAndErrorScreenTests.Server(turbo: true)
        let plugins = try await PathConfigurationTests.pluginsWithNativeScreen()
        let configuration = try PathConfigurationTests.write(Self.shared, named: "shared.json")
        let host = try HostProcess(
            page: server.url("/links?click=settings"),
            arguments: ["--plugins", plugins, "--path-configuration", configuration])
        let loaded = try await host.waitFor(.pathConfigurationLoaded)
        #expect(loaded["rules"] == 3)
        let warning = try await host.waitFor(.pathConfigurationWarning)
        #expect(warning["source"] == .string(configuration))
        guard case .array(let warnings)? = warning["warnings"], warnings.count == 5 else {
            Issue.record("five warnings expected: \(warning)")
            return
        }
        #expect(
            warnings.map { $0["key"]?.stringValue ?? "," } == [
                "properties.fallback_uri", "properties.modal_dismiss_gesture_enabled",
                "properties.pull_to_refresh_enabled", "settings.enable_feature_x", ",",
            ])
        #expect(warnings[2]["rules"] == .array([0]) && warnings[2]["kind"] == "other-platform")
        #expect(warnings[4]["kind"] == "trailing-comma" && warnings[4]["line"] == 17 && warnings[4]["column"] == 6)
        let line = "shared.json: 5 thing(s) do nothing here — properties.fallback_uri in rule 0"
        #expect(host.standardError.contains(line))

        // Android's uri names the plugin's "settings" screen; its web destinations stay web pages.
        let pushed = try await host.waitFor(.screenPushed) { $0["depth"] == 2 }
        #expect(pushed["view"] == "settings" && pushed["url"] == .string(server.url("/settings")))
        #expect(host.events.filter { HostProcess.name(of: $0) == .pathConfigurationWarning }.count == 1)
        try await RouteAndErrorScreenTests.quit(host)
        server.stop()
    }

    @Test func aTruncatedFileAndAServersHTMLPageAreNamedByLineAndColumn() async throws {
        let truncated = try PathConfigurationTests.write(
            "{\n  \"rules\": [\n    {\"patterns\": [\"/new$\"], \"properties\": {\"context\": \"modal\"",
            named: "cut.json")
        let served = try PathConfigurationTests.write("<!DOCTYPE html>\n<p>Sign in</p>\n", named: "served.json")
        let configServer = try await LocalHTTPServer.running(
            script: Repository.path("Examples/demo/server.py"),
            arguments: ["--port", "0", "--path-configuration", served])
        let url = configServer.url + "configurations/linux.json"
        let host = try HostProcess(
            page: Repository.path("Examples/form-demo/index.html"),
            arguments: [
                "--plugins", try PluginsDirectory.make(plugins: ["libStradaFormPlugin.so"]),
                "--path-configuration", truncated, "--path-configuration", url,
            ],
            environment: ["XDG_CACHE_HOME": try TemporaryDirectory.make("cache")])
        let file = try await host.waitFor(.pathConfigurationError) { $0["source"] == .string(truncated) }
        #expect(file["error"] == "is not JSON: line 3, column 62: unexpected end of input")
        let server = try await host.waitFor(.pathConfigurationError) { $0["source"] == .string(url) }
        #expect(server["error"] == "is not JSON: line 1, column 1: unexpected character")
        #expect(host.standardError.contains("path configuration \(url) is not JSON: line 1, column 1"))
        try await RouteAndErrorScreenTests.quit(host)
        configServer.stop()
    }
}
