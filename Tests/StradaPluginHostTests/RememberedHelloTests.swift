import Foundation
import Logging
import StradaAutomation
import TestSupport
import Testing

@testable import StradaPluginHost

/// What a worker's hello says it loaded goes where the plugin manifest cache would keep it (the plugin's
/// `remember`), when nothing may have declared the file yet: a plugin started at start-up or added while the host
/// runs, and every new build; not a declared plugin's first worker. The worker is the shell script of
/// ``LazyWorkerUnitTests/launcher(starts:hello:)``, so no plugin is built.
@Suite(.temporaryDirectories)
@MainActor
struct RememberedHelloTests {
    /// What the fake worker's hello (``LazyWorkerUnitTests/goodHello``) says, for the plugin at `path`.
    static func helloStatus(_ path: String) -> PluginStatus {
        PluginStatus(
            path: path, state: .loaded, id: "dev.test.fake", version: "1.2.0", abi: "1.0",
            components: ["fake", "other"])
    }

    static func launcher() throws -> PluginProcessLauncher {
        let starts = (try TemporaryDirectory.make("starts") as NSString).appendingPathComponent("starts")
        return LazyWorkerUnitTests.launcher(starts: starts, hello: LazyWorkerUnitTests.goodHello)
    }

    /// At start-up every worker that loads is remembered, by the plugin's own path (not the staged copy its worker
    /// loads); one whose worker did not load is not.
    @Test func pluginsStartedTogetherAreRememberedWhenTheyLoad() throws {
        var remembered: [PluginStatus] = []
        let outcomes = IsolatedPlugin.start(
            [("/plugins/libfake.so", "/staged/1-libfake.so"), ("/plugins/libfake-broken.so", nil)],
            launcher: try Self.launcher(), remember: { remembered.append($0) }, logger: Logger(label: "t"))
        defer { for case .success(let plugin) in outcomes { plugin.shutdown() } }
        #expect(outcomes.map { (try? $0.get()) != nil } == [true, false])
        #expect(remembered == [Self.helloStatus("/plugins/libfake.so")])
    }

    @Test func aPluginAddedWhileTheHostRunsIsRememberedOnceItLoads() async throws {
        var remembered: [PluginStatus] = []
        let launcher = try Self.launcher()
        let plugin = await withCheckedContinuation { continuation in
            IsolatedPlugin.start(
                path: "/plugins/libfake.so", file: "/staged/1-libfake.so", launcher: launcher,
                remember: { remembered.append($0) }, logger: Logger(label: "t")
            ) { continuation.resume(returning: try? $0.get()) }
        }
        defer { plugin?.shutdown() }
        #expect(plugin != nil)
        #expect(remembered == [Self.helloStatus("/plugins/libfake.so")])
    }

    /// A declared plugin's first worker adds nothing (the cache or its manifest declared the file); a new build of
    /// it is remembered once its worker has loaded, and a build that does not load is not.
    @Test func aDeclaredPluginIsRememberedOnlyForANewBuild() async throws {
        var remembered: [PluginStatus] = []
        let plugin = IsolatedPlugin.declared(
            LazyWorkerUnitTests.declared, file: nil, launcher: try Self.launcher(),
            remember: { remembered.append($0) }, logger: Logger(label: "t"))
        defer { plugin.shutdown() }
        let (result, _) = await LazyWorkerUnitTests.call(plugin, "add")
        #expect(result == .number(42), "its first worker serves")
        #expect(remembered.isEmpty)

        let (_, refused) = await LazyWorkerUnitTests.reload(plugin, from: "/staged/2-libfake-broken.so")
        #expect(refused != nil)
        #expect(remembered.isEmpty)
        let (names, error) = await LazyWorkerUnitTests.reload(plugin, from: "/staged/3-libfake.so")
        #expect(names != nil && error == nil, "\(String(describing: error))")
        #expect(remembered == [Self.helloStatus("/plugins/libfake.so")])
    }
}
