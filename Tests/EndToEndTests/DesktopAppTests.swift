import Foundation
import TestSupport
import Testing

/// The host as a desktop app: website data that lasts between runs of the same app.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct DesktopAppTests {
    /// A fresh home for the app's data and cache folders.
    static func home() throws -> [String: String] {
        let home = try TemporaryDirectory.make("home")
        return ["XDG_DATA_HOME": home + "/data", "XDG_CACHE_HOME": home + "/cache", "XDG_STATE_HOME": home + "/state"]
    }

    /// The title the session page shows in one run of the host.
    static func sessionTitle(
        _ server: LocalHTTPServer, _ environment: [String: String], ephemeral: Bool, id: String = "com.example.Notes"
    ) async throws -> String {
        let host = try HostProcess(
            page: server.url + "session", arguments: ["--plugins", try PluginsDirectory.make(), "--app-id", id],
            environment: environment, ephemeral: ephemeral)
        let title = try await host.waitFor("page.title") { ($0["title"] as? String)?.hasPrefix("session:") == true }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        return title["title"] as? String ?? ""
    }

    @Test func aLoginSurvivesARestartUnlessEphemeral() async throws {
        let server = try await LocalHTTPServer.running(
            script: Repository.path("Examples/demo/server.py"), arguments: ["--port", "0"])
        defer { server.stop() }
        let environment = try Self.home()
        #expect(try await Self.sessionTitle(server, environment, ephemeral: false) == "session: new")
        let returning = try await Self.sessionTitle(server, environment, ephemeral: false)
        #expect(returning.hasPrefix("session: returning "))
        // The data is the app's own: another app id starts logged out, as does --ephemeral.
        #expect(
            try await Self.sessionTitle(server, environment, ephemeral: false, id: "com.example.Other")
                == "session: new")
        #expect(try await Self.sessionTitle(server, environment, ephemeral: true) == "session: new")
        let data = environment["XDG_DATA_HOME"]! + "/com.example.Notes"
        #expect(FileManager.default.fileExists(atPath: data + "/cookies.sqlite"))
    }
}
