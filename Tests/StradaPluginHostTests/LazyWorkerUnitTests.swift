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

    /// A launcher whose "worker" notes each start in `starts`; for a file whose name contains "broken" it exits
    /// with status 3 (it crashed while loading); otherwise it says `hello`, then answers each `add` call it reads
    /// with 42 (the first call starts the worker: it was sent before the hello).
    static func launcher(starts: String, hello: WorkerMessage) -> PluginProcessLauncher {
        let result = WorkerMessage.callResult(call: 1, result: .number(42), error: nil).line
        let script = """
            echo started >> '\(starts)'
            case "$1" in *broken*) exit 3;; esac
            printf '%s\\n' '\(hello.line)'
            while read -r line; do
              if printf '%s' "$line" | grep -q '"action":"add"'; then printf '%s\\n' '\(result)'; fi
            done
            """
        return PluginProcessLauncher(
            executable: "/bin/sh", probeArguments: { _ in [] },
            workerArguments: { file, _ in ["-c", script, "sh", file] })
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

    static let goodHello = WorkerMessage.hello(
        id: "dev.test.fake", version: "1.2.0", abi: "1.0", components: ["fake", "other"])

    static func reload(_ plugin: IsolatedPlugin, from file: String) async -> ([String]?, PluginLoadError?) {
        await withCheckedContinuation { continuation in
            plugin.reload(from: file) { names, error in continuation.resume(returning: (names, error)) }
        }
    }

    @Test func aFirstWorkerThatCrashesWhileLoadingIsReportedWithItsStatus() async throws {
        let starts = (try TemporaryDirectory.make("starts") as NSString).appendingPathComponent("starts")
        let plugin = IsolatedPlugin.declared(
            Self.declared, file: "/staged/libfake-broken.so",
            launcher: Self.launcher(starts: starts, hello: Self.goodHello),
            logger: Logger(label: "t"))
        defer { plugin.shutdown() }
        var failures: [PluginLoadError] = []
        plugin.onEvent = { event in
            if case .loadFailed(let error) = event { failures.append(error) }
        }
        let (_, error) = await Self.call(plugin, "add")
        #expect(error == "plugin dev.test.fake: it failed to load when first needed")
        #expect(
            failures
                == [
                    PluginLoadError(
                        path: "/plugins/libfake.so", reason: "its worker process exited while loading it (status 3)",
                        remedy: "fix or remove the plugin")
                ])
    }

    /// `--watch`: a new build of a plugin without a worker is loaded in a worker (its validation); a broken one
    /// leaves the plugin declared, a good one's worker serves from then on.
    @Test func aNewBuildOfADeclaredPluginIsValidatedInItsFirstWorker() async throws {
        let starts = (try TemporaryDirectory.make("starts") as NSString).appendingPathComponent("starts")
        let plugin = IsolatedPlugin.declared(
            Self.declared, file: nil, launcher: Self.launcher(starts: starts, hello: Self.goodHello),
            logger: Logger(label: "t"))
        defer { plugin.shutdown() }
        let (none, refused) = await Self.reload(plugin, from: "/staged/2-libfake-broken.so")
        #expect(none == nil)
        #expect(refused?.reason == "its worker process exited while loading it (status 3)")
        #expect(refused?.remedy == "fix or remove the plugin; the previous build is started when first needed")
        #expect(plugin.waitingForFirstUse)

        let (names, error) = await Self.reload(plugin, from: "/staged/3-libfake.so")
        #expect(names == [] && error == nil, "\(String(describing: error))")
        #expect(!plugin.waitingForFirstUse)
        #expect(plugin.refusal == nil)
        // The new build's worker serves: a call goes to it, and no other worker starts.
        let (result, _) = await Self.call(plugin, "add")
        #expect(result == .number(42))
        #expect(Self.starts(starts) == 2)
    }
}
