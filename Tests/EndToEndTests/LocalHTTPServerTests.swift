import Foundation
import TestSupport
import Testing

/// The servers tests start are gone when the test ends: promptly on `stop()`, and by themselves when the
/// process that started them dies without stopping them.
@Suite(.serialized, .oneAtATime)
struct LocalHTTPServerTests {
    @Test func stopEndsTheServerAtOnce() async throws {
        let server = try await LocalHTTPServer.serving(directory: Repository.path("Tests/EndToEndTests/Fixtures"))
        let started = Date()
        server.stop()
        #expect(Date().timeIntervalSince(started) < 1.5, "SIGTERM was not enough")
        #expect(!FileManager.default.fileExists(atPath: "/proc/\(server.pid)/status"))
    }

    @Test func aServerWhoseStarterDiesStopsByItself() async throws {
        let arguments = LocalHTTPServer.pythonArguments(["-m", "http.server", "0", "--bind", "127.0.0.1"])
        let started = try await ProcessRunner.run(
            "/bin/sh", ["-c", #"LOCAL_HTTP_SERVER_PARENT=$$ python3 "$@" >/dev/null 2>&1 & echo $!"#, "sh"] + arguments)
        let pid = try #require(Int32(started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let deadline = Date().addingTimeInterval(5)
        while FileManager.default.fileExists(atPath: "/proc/\(pid)/status") && Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        let alive = FileManager.default.fileExists(atPath: "/proc/\(pid)/status")
        if alive { kill(pid, SIGKILL) }
        #expect(!alive, "the server outlived the process that started it")
    }
}
