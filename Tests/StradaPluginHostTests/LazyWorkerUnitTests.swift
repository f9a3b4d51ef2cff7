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

    /// `declared`, its worker the fake saying `hello` (loading `file`), and the file that counts its starts.
    static func declaredPlugin(
        _ declared: DeclaredPlugin = declared, hello: WorkerMessage = goodHello, file: String? = nil
    ) throws -> (IsolatedPlugin, starts: String) {
        let starts = (try TemporaryDirectory.make("starts") as NSString).appendingPathComponent("starts")
        let plugin = IsolatedPlugin.declared(
            declared, file: file, launcher: launcher(starts: starts, hello: hello), remember: nil,
            logger: Logger(label: "t"))
        return (plugin, starts)
    }

    /// A launcher whose "worker" notes each start in `starts`; for a file whose name contains "broken" it exits
    /// with status 3 (it crashed while loading); otherwise it says `hello` (half a second late for a file whose
    /// name contains "slow"), then answers each `add` call it reads with 42, and each heartbeat (the first call
    /// starts the worker: it was sent before the hello).
    static func launcher(starts: String, hello: WorkerMessage) -> PluginProcessLauncher {
        let result = WorkerMessage.callResult(call: 999_999, result: .number(42), error: nil).line
            .split(separator: "999999", omittingEmptySubsequences: false)
        let script = """
            echo started >> '\(starts)'
            case "$1" in *broken*) exit 3;; *slow*) sleep 0.5;; esac
            printf '%s\\n' '\(hello.line)'
            while read -r line; do
              case "$line" in
                *'"action":"add"'*)
                  call=$(printf '%s' "$line" | sed -n 's/.*"call":\\([0-9]*\\).*/\\1/p')
                  printf '%s\\n' '\(result[0])'"$call"'\(result[1])';;
                *'"op":"ping"'*) printf '%s\\n' '\(WorkerMessage.pong.line)';;
              esac
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
        let hello = WorkerMessage.hello(
            id: "dev.test.fake", version: "1.2.0", abi: "1.0", components: ["fake", "other"])
        let (plugin, starts) = try Self.declaredPlugin(hello: hello)
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

    /// Its grant is made from the manifest read when it was declared (none lies beside `/plugins/libfake.so`), not
    /// read again, until its first worker serves; then from the manifest beside its file.
    @Test func itsGrantComesFromTheManifestReadAtItsDeclarationUntilItsFirstWorkerServes() async throws {
        var declared = Self.declared
        declared.manifest = .some(PluginManifest(id: "dev.test.fake", origins: ["https://app.example.com"]))
        let (plugin, _) = try Self.declaredPlugin(declared)
        defer { plugin.shutdown() }
        let check = try #require(plugin.registrations.first?.pageCheck, "the declared manifest names origins")
        #expect(check("https://app.example.com/inbox") == nil)
        #expect(check("https://other.example.org/")?.contains("is not granted to https://other.example.org") == true)

        let (result, _) = await Self.call(plugin, "add")
        #expect(result == .number(42))
        #expect(plugin.registrations.first?.pageCheck == nil, "no manifest beside the file: every page may")
    }

    @Test func aFirstWorkerWhoseHelloDiffersIsReportedOnceAndStartedNoMore() async throws {
        let hello = WorkerMessage.hello(id: "dev.test.fake", version: "1.2.0", abi: "1.0", components: ["fake"])
        let (plugin, starts) = try Self.declaredPlugin(hello: hello)
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

    /// Makes a first call to `plugin`, whose first worker does not load: the call is answered that the plugin
    /// failed to load when first needed. Returns the load failures `plugin` reported meanwhile.
    static func failuresOfAFirstCall(to plugin: IsolatedPlugin) async -> [PluginLoadError] {
        var failures: [PluginLoadError] = []
        plugin.onEvent = { event in
            if case .loadFailed(let error) = event { failures.append(error) }
        }
        let (_, error) = await call(plugin, "add")
        #expect(error == "plugin dev.test.fake: it failed to load when first needed")
        return failures
    }

    @Test func aFirstWorkerThatCrashesWhileLoadingIsReportedWithItsStatus() async throws {
        let (plugin, starts) = try Self.declaredPlugin(file: "/staged/libfake-broken.so")
        defer { plugin.shutdown() }
        let failures = await Self.failuresOfAFirstCall(to: plugin)
        #expect(
            failures
                == [
                    PluginLoadError(
                        path: "/plugins/libfake.so", reason: "its worker process exited while loading it (status 3)",
                        remedy: "fix or remove the plugin")
                ])
    }

    /// A worker from another build (`swift build --product strada-host` alone leaves the helper as it was) is
    /// refused at its hello with one line that says so, however well its hello matches otherwise.
    @Test(arguments: [0, WorkerMessage.protocolVersion + 1])
    func aWorkerSpeakingAnotherProtocolIsRefusedAtItsHello(workerProtocol: Int) async throws {
        let hello = WorkerMessage.hello(
            id: "dev.test.fake", version: "1.2.0", abi: "1.0", components: ["fake", "other"],
            workerProtocol: workerProtocol)
        let (plugin, _) = try Self.declaredPlugin(hello: hello)
        defer { plugin.shutdown() }
        let failures = await Self.failuresOfAFirstCall(to: plugin)
        #expect(
            failures.map(\.description) == [
                "plugin /plugins/libfake.so: its worker, /bin/sh, is from another build of Strada (worker protocol "
                    + "\(workerProtocol), this host's \(WorkerMessage.protocolVersion)) — build every product again "
                    + "(swift build), or reinstall the host"
            ])
    }

    /// A call made once the first worker ended while loading, but before that end is handled (its input is closed,
    /// so the call cannot be sent), is answered with why the plugin did not load, not told to try again.
    @Test func aCallAfterTheFirstWorkerEndedWhileLoadingIsAnsweredWithTheLoadFailure() async throws {
        let (plugin, _) = try Self.declaredPlugin(file: "/staged/libfake-broken.so")
        defer { plugin.shutdown() }
        var first: String?
        plugin.call(action: "add", arguments: []) { first = $1 }
        // The worker exits at once; its end is handled on the main actor, which this loop holds meanwhile.
        let connection = try #require(plugin.connection)
        let deadline = Date().addingTimeInterval(5)
        while connection.acceptsInput && Date() < deadline { usleep(10_000) }
        #expect(!connection.acceptsInput && plugin.connection === connection)
        let (_, error) = await Self.call(plugin, "add")
        #expect(error == "plugin dev.test.fake: it failed to load when first needed")
        #expect(first == "plugin dev.test.fake: it failed to load when first needed")
    }

    /// `--watch`: a new build of a plugin without a worker is loaded in a worker (its validation); a broken one
    /// leaves the plugin declared, a good one's worker serves from then on.
    @Test func aNewBuildOfADeclaredPluginIsValidatedInItsFirstWorker() async throws {
        let (plugin, starts) = try Self.declaredPlugin()
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

    /// What ``eventually(_:)`` throws when what it waits for does not come.
    struct NeverCame: Error {}

    /// Waits (on the main actor, so workers' lines are handled meanwhile) until `value()` is not `nil`; throws after
    /// 20 s, or when the test is cancelled (its time limit), instead of waiting for ever.
    static func eventually<T>(_ value: () -> T?) async throws -> T {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if let value = value() { return value }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw NeverCame()
    }

    /// Starts a reload of `plugin` from `file`, and in the same turn calls `add` (`callFirst`: the other way round),
    /// so one comes while the other's worker loads; returns both outcomes.
    static func reloadAndCall(_ plugin: IsolatedPlugin, from file: String, callFirst: Bool = false) async throws -> (
        reload: ([String]?, PluginLoadError?), call: (JSON?, String?)
    ) {
        var reloaded: ([String]?, PluginLoadError?)?
        var called: (JSON?, String?)?
        if callFirst { plugin.call(action: "add", arguments: []) { called = ($0, $1) } }
        plugin.reload(from: file) { reloaded = ($0, $1) }
        if !callFirst { plugin.call(action: "add", arguments: []) { called = ($0, $1) } }
        return (try await eventually { reloaded }, try await eventually { called })
    }

    /// A first use while a new build of a plugin without a worker is loading adopts that build's worker: what it
    /// sends waits for that hello, and no second worker starts.
    @Test func aFirstUseWhileANewBuildLoadsIsServedByIt() async throws {
        let (plugin, starts) = try Self.declaredPlugin()
        defer { plugin.shutdown() }
        let ((names, error), (result, _)) = try await Self.reloadAndCall(plugin, from: "/staged/2-libfake.so")
        #expect(names == [] && error == nil, "\(String(describing: error))")
        #expect(result == .number(42))
        #expect(Self.starts(starts) == 1)
    }

    /// If that new build does not load, the build the plugin was declared with is started for the page instead.
    @Test func aFirstUseAdoptingANewBuildThatFailsFallsBackToThePreviousBuild() async throws {
        let (plugin, starts) = try Self.declaredPlugin()
        defer { plugin.shutdown() }
        let ((names, error), (_, callError)) = try await Self.reloadAndCall(plugin, from: "/staged/2-libfake-broken.so")
        #expect(names == nil && error?.reason == "its worker process exited while loading it (status 3)")
        // The call went to the build that failed: it is answered with why.
        #expect(callError == "plugin dev.test.fake: its new build did not load")
        let (result, _) = await Self.call(plugin, "add")
        #expect(result == .number(42), "the previous build serves")
        #expect(!plugin.waitingForFirstUse && plugin.refusal == nil)
        #expect(Self.starts(starts) == 2)
    }

    /// A new build arriving while a first use's worker loads replaces it: the call made for that first use is
    /// answered with why, and the new build serves.
    @Test func aNewBuildArrivingWhileAFirstWorkerLoadsReplacesIt() async throws {
        let (plugin, starts) = try Self.declaredPlugin()
        defer { plugin.shutdown() }
        let ((names, error), (_, callError)) = try await Self.reloadAndCall(
            plugin, from: "/staged/2-libfake.so", callFirst: true)
        #expect(names == [] && error == nil, "\(String(describing: error))")
        #expect(callError == "plugin dev.test.fake: a new build replaced it before it answered")
        let (result, _) = await Self.call(plugin, "add")
        #expect(result == .number(42))
        #expect(!plugin.waitingForFirstUse && plugin.refusal == nil)
        // The replaced worker may be killed before its first line runs: no more than the two were started.
        #expect((1...2).contains(Self.starts(starts)))
    }
}
