import Foundation
import Logging
import StradaAutomation
import StradaCore
import TestSupport
import Testing

@testable import StradaPluginHost

/// A declared plugin that runs in a worker gets its worker only when first needed; a first worker whose hello does
/// not match what was announced does not serve, said once. The worker here is a shell script speaking the worker's
/// protocol (`WorkerMessage` lines), so no plugin is built.
@Suite(.temporaryDirectories)
@MainActor
struct LazyWorkerUnitTests {
    static let declared = DeclaredPlugin(
        path: "/plugins/libfake.so", id: "dev.test.fake", version: "1.2.0", componentNames: ["fake", "other"],
        probed: false)

    // MARK: The hello matches the declaration

    @Test func aHelloWithTheSameIdAndComponentsInAnyOrderMatches() {
        #expect(Self.declared.mismatch(id: "dev.test.fake", components: ["other", "fake"]) == nil)
    }

    @Test(arguments: [
        ("dev.test.fake", ["fake"]), ("dev.test.fake", ["fake", "other", "third"]),
        ("dev.test.other", ["fake", "other"]),
    ])
    func aHelloWithAnotherIdOrOtherComponentsDoesNotMatch(id: String, components: [String]) throws {
        let error = try #require(Self.declared.mismatch(id: id, components: components))
        #expect(error.path == "/plugins/libfake.so")
        #expect(
            error.reason
                == "loaded as \(id) providing [\(components.joined(separator: " "))], but its manifest announced "
                + "dev.test.fake providing [fake other]")
        #expect(error.remedy.hasPrefix("fix its manifest"))
    }

    @Test func aMismatchWithTheCacheSaysToReinstall() throws {
        let cached = DeclaredPlugin(
            path: "/plugins/libfake.so", id: "dev.test.fake", version: "1.2.0", componentNames: ["fake"], probed: true)
        let error = try #require(cached.mismatch(id: "dev.test.fake", components: ["else"]))
        #expect(error.reason.contains("the plugin manifest cache announced"))
        #expect(error.remedy == "reinstall it (a rewritten file is probed again)")
    }

    // MARK: A worker only when first needed

    /// A launcher whose "worker" notes each start in `starts`, reads one line, says `hello`, and answers an `add`
    /// call with 42 (only if that line was the call: it was sent before the hello).
    static func launcher(starts: String, hello: WorkerMessage) -> PluginProcessLauncher {
        let result = WorkerMessage.callResult(call: 1, result: .number(42), error: nil).line
        let script = """
            echo started >> '\(starts)'
            read -r line
            printf '%s\\n' '\(hello.line)'
            if printf '%s' "$line" | grep -q '"action":"add"'; then printf '%s\\n' '\(result)'; fi
            cat > /dev/null
            """
        return PluginProcessLauncher(
            executable: "/bin/sh", probeArguments: { _ in [] }, workerArguments: { _, _ in ["-c", script] })
    }

    static func starts(_ file: String) -> Int {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    static func call(_ plugin: IsolatedPlugin, _ action: String) async -> (JSON?, String?) {
        await withCheckedContinuation { continuation in
            plugin.call(action: action, arguments: []) { result, error in
                continuation.resume(returning: (result, error))
            }
        }
    }

    @Test func aDeclaredPluginStartsItsWorkerAtItsFirstCallWhichWaitsForTheHello() async throws {
        let starts = (try TemporaryDirectory.make("starts") as NSString).appendingPathComponent("starts")
        let hello = WorkerMessage.hello(
            id: "dev.test.fake", version: "1.2.0", abi: "1.0", components: ["fake", "other"])
        let plugin = IsolatedPlugin.declared(
            Self.declared, file: nil, launcher: Self.launcher(starts: starts, hello: hello), logger: Logger(label: "t"))
        defer { plugin.shutdown() }
        // Announced from its declaration, with no process.
        #expect(
            plugin.id == "dev.test.fake" && plugin.version == "1.2.0" && plugin.componentNames == ["fake", "other"])
        #expect(plugin.waitingForFirstUse)
        #expect(plugin.registrations.map(\.name) == ["fake", "other"])
        #expect(Self.starts(starts) == 0)

        let (result, error) = await Self.call(plugin, "add")
        #expect(result == .number(42) && error == nil, "\(error ?? "")")
        #expect(!plugin.waitingForFirstUse)
        #expect(Self.starts(starts) == 1)
    }

    @Test func aFirstWorkerWhoseHelloDiffersIsReportedOnceAndStartedNoMore() async throws {
        let starts = (try TemporaryDirectory.make("starts") as NSString).appendingPathComponent("starts")
        let hello = WorkerMessage.hello(id: "dev.test.fake", version: "1.2.0", abi: "1.0", components: ["fake"])
        let plugin = IsolatedPlugin.declared(
            Self.declared, file: nil, launcher: Self.launcher(starts: starts, hello: hello), logger: Logger(label: "t"))
        defer { plugin.shutdown() }
        var failures: [PluginLoadError] = []
        plugin.onEvent = { event in
            if case .loadFailed(let error) = event { failures.append(error) }
        }
        let (result, error) = await Self.call(plugin, "add")
        #expect(result == nil)
        #expect(error == "plugin dev.test.fake: it failed to load when first needed")
        #expect(failures.map(\.reason) == [Self.declared.mismatch(id: "dev.test.fake", components: ["fake"])?.reason])
        #expect(plugin.refusal?.hasPrefix("plugin dev.test.fake failed to load when first needed: loaded as") == true)

        // Needed again: refused at once, no new worker, nothing said again.
        let (_, again) = await Self.call(plugin, "add")
        #expect(again?.hasPrefix("plugin dev.test.fake failed to load when first needed") == true, "\(again ?? "")")
        #expect(again?.hasSuffix("; try again once it serves") == true)
        #expect(failures.count == 1)
        #expect(Self.starts(starts) == 1)
    }
}
