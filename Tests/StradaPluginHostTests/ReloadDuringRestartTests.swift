import Foundation
import Logging
import StradaAutomation
import StradaCore
import TestSupport
import Testing

@testable import StradaPluginHost

/// A new build arriving while an isolated plugin's worker is being restarted after a crash takes the restart's
/// place (as it takes a first use's): it serves if it loads; if it does not, the build that crashed is started
/// again, reported as restarted, and serves. The worker is the shell script of
/// ``LazyWorkerUnitTests/launcher(starts:hello:)``; its file's name has "slow" in it, so each restart's hello comes
/// half a second late and the new build arrives while it is awaited.
@Suite(.temporaryDirectories, .timeLimit(.minutes(1)))
@MainActor
struct ReloadDuringRestartTests {
    /// A plugin started from a slow file and serving, whose worker is then killed: a restart is under way when this
    /// returns. Also returns the events the plugin reported and the file counting worker starts.
    static func restarting() async throws -> (IsolatedPlugin, events: () -> [IsolatedPlugin.Event], starts: String) {
        let starts = (try TemporaryDirectory.make("starts") as NSString).appendingPathComponent("starts")
        let launcher = LazyWorkerUnitTests.launcher(starts: starts, hello: LazyWorkerUnitTests.goodHello)
        let outcomes = IsolatedPlugin.start(
            [("/plugins/libfake.so", "/staged/1-libfake-slow.so")], launcher: launcher, remember: nil,
            logger: Logger(label: "t"))
        let plugin = try #require(try? outcomes.first?.get())
        var events: [IsolatedPlugin.Event] = []
        plugin.onEvent = { events.append($0) }
        plugin.connection?.kill()
        _ = try await LazyWorkerUnitTests.eventually { () -> Bool? in
            if case .restart? = plugin.pending?.purpose { return true }
            return nil
        }
        return (plugin, { events }, starts)
    }

    static func restartedCount(_ events: [IsolatedPlugin.Event]) -> Int {
        events.filter { if case .restarted = $0 { true } else { false } }.count
    }

    @Test func aNewBuildThatLoadsReplacesTheRestartAndServes() async throws {
        let (plugin, events, starts) = try await Self.restarting()
        defer { plugin.shutdown() }
        let (names, error) = await LazyWorkerUnitTests.reload(plugin, from: "/staged/2-libfake.so")
        #expect(names == [] && error == nil, "\(String(describing: error))")
        let (result, _) = await LazyWorkerUnitTests.call(plugin, "add")
        #expect(result == .number(42))
        #expect(plugin.loadPath == "/staged/2-libfake.so")
        #expect(Self.restartedCount(events()) == 0, "the restart gave way: \(events())")
        // The first worker, the restart's (killed, perhaps before its first line ran), the new build's.
        #expect((2...3).contains(LazyWorkerUnitTests.starts(starts)))
    }

    /// Before, the restart's worker went on serving with its hello ignored: never reported as restarted.
    @Test func aNewBuildThatDoesNotLoadFallsBackToTheBuildThatCrashed() async throws {
        let (plugin, events, starts) = try await Self.restarting()
        defer { plugin.shutdown() }
        let (names, error) = await LazyWorkerUnitTests.reload(plugin, from: "/staged/2-libfake-broken.so")
        #expect(names == nil && error?.reason == "its worker process exited while loading it (status 3)")
        _ = try await LazyWorkerUnitTests.eventually { Self.restartedCount(events()) > 0 ? true : nil }
        let (result, _) = await LazyWorkerUnitTests.call(plugin, "add")
        #expect(result == .number(42), "the build that crashed serves again")
        #expect(plugin.loadPath == "/staged/1-libfake-slow.so")
        #expect(Self.restartedCount(events()) == 1 && !plugin.disabled, "\(events())")
        // The first worker, the restart's (killed, perhaps before its first line ran), the new build's, the restart.
        #expect((3...4).contains(LazyWorkerUnitTests.starts(starts)))
    }
}
