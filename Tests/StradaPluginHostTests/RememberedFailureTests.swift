import CStradaCrash
import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

@testable import StradaPluginHost

/// What the host remembers of plugin files that failed, without any process: the plugin manifest cache's failed
/// entries and the rule that refuses them, and the crash record the fatal-signal handler appends to.
@Suite(.temporaryDirectories)
struct RememberedFailureTests {
    static func hung(_ path: String) -> PluginStatus {
        .crashed(path, "hung while loading (no answer in 5 s)")
    }

    /// A plugin file of its own, written with `text` (its identity changes when the text does).
    static func file(_ text: String, named name: String = "libplugin.so") throws -> (folder: String, path: String) {
        let folder = try TemporaryDirectory.make("remembered")
        let path = (folder as NSString).appendingPathComponent(name)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return (folder, path)
    }

    // MARK: The plugin manifest cache

    @Test func aHangIsRememberedByFileIdentityAndForgottenWhenTheFileChanges() throws {
        let (folder, plugin) = try Self.file("build 1")
        let file = (folder as NSString).appendingPathComponent("strada/plugin-manifests")
        var cache = PluginManifestCache(file: file)
        cache.remember([Self.hung(plugin)])
        // Not a plugin that loads, but a failure, read back by another host.
        #expect(PluginManifestCache(file: file).status(of: plugin) == nil)
        let failure = try #require(PluginManifestCache(file: file).failure(of: plugin))
        #expect(failure.reason == "hung while loading (no answer in 5 s)")
        #expect(
            failure.description
                == "plugin \(plugin): hung while loading (no answer in 5 s) — fix the plugin or remove it "
                + "(it failed so at an earlier start: not tried again until the file changes)")

        try "build 2, longer".write(toFile: plugin, atomically: false, encoding: .utf8)
        #expect(PluginManifestCache(file: file).failure(of: plugin) == nil)
        // A good build remembered after it replaces the failure's line.
        var again = PluginManifestCache(file: file)
        again.remember([
            PluginStatus(path: plugin, state: .loaded, id: "dev.example.fixed", version: "1.0.0", components: ["x"])
        ])
        #expect(PluginManifestCache(file: file).status(of: plugin)?.id == "dev.example.fixed")
        #expect(try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").count == 1)
    }

    /// Hosts remembering at the same time (a test run's, several apps') lose none of each other's lines: each reads,
    /// merges and renames under the cache's lock.
    @Test func hostsRememberingAtOnceLoseNoLine() throws {
        let folder = try TemporaryDirectory.make("many")
        let file = (folder as NSString).appendingPathComponent("strada/plugin-manifests")
        let plugins = try (0..<32).map { index in
            let path = (folder as NSString).appendingPathComponent("lib\(index).so")
            try "build \(index)".write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }
        DispatchQueue.concurrentPerform(iterations: plugins.count) { index in
            var cache = PluginManifestCache(file: file)  // each host read the file before the others wrote
            cache.remember([Self.hung(plugins[index])])
        }
        let read = PluginManifestCache(file: file)
        #expect(plugins.filter { read.failure(of: $0) == nil } == [])
    }

    /// Only what a new file alone can change is remembered: a refusal that may pass with the same file (its entry
    /// point refused, a library it needs is missing, the probe could not start) is tried again at the next start.
    @Test(arguments: [
        (PluginLoadError.notSharedLibrary("/p"), true), (.missingEntry("/p"), true), (.otherMajor("/p", 2), true),
        (.newerMinor("/p", 9, host: 0), true), (.invalidDescription("/p", "plugin_id is missing"), true),
        (PluginLoadError(path: "/p", reason: "crashed while loading (signal 11)", remedy: "fix it"), true),
        (PluginLoadError(path: "/p", reason: "hung while loading (no hello from its worker in 5 s)", remedy: ""), true),
        (
            PluginLoadError(path: "/p", reason: "its worker process exited while loading it (status 3)", remedy: ""),
            true
        ),
        (.entryFailed("/p", -5), false), (.dlopenFailed("/p", "libgpu.so.1: cannot open"), false),
        (.unreadableDirectory("/p"), false),
        (PluginLoadError(path: "/p", reason: "could not start the probe (ENOENT)", remedy: "reinstall"), false),
    ])
    func aFailureIsRememberedOnlyWhenOnlyANewFileCanEndIt(error: PluginLoadError, remembered: Bool) {
        #expect(error.isPropertyOfTheFile == remembered)
        #expect(PluginManifestCache.remembersFailure(PluginStatus(error)) == remembered)
    }

    @Test func aFileThatFailedBeforeIsRefusedAtOnceWithItsLine() {
        let status = Self.hung("/plugins/libhang.so")
        let declaration = DeclaredPlugin.declaration(
            of: "/plugins/libhang.so", cached: status, manifest: .success(nil), trust: nil)
        let expected = PluginManifestCache.failure(status)
        #expect(expected != nil && declaration == expected.map { .failedBefore($0) })
        // A file others could have replaced is refused for that first.
        let untrusted = PluginLoadError(path: "/plugins/libhang.so", reason: "writable by others", remedy: "chmod")
        #expect(
            DeclaredPlugin.declaration(
                of: "/plugins/libhang.so", cached: status, manifest: .success(nil), trust: untrusted)
                == .refused(untrusted))
    }

    /// The registry's start-up reads the same cache: a remembered failure is one error, and nothing is probed (no
    /// launcher is given, so a probe would have loaded the file here and refused it for another reason).
    @MainActor @Test func aStartUpRefusesARememberedFailureWithoutLoadingIt() throws {
        let (folder, plugin) = try Self.file("not an ELF file")
        var cache = PluginManifestCache(file: (folder as NSString).appendingPathComponent(".cache/plugin-manifests"))
        cache.remember([Self.hung(plugin)])
        let registry = PluginRegistry(
            directories: [folder], staging: false, logger: .init(label: "test"),
            cache: PluginManifestCache(file: cache.file))
        let report = registry.loadAll()
        #expect(report.errors.map(\.reason) == ["hung while loading (no answer in 5 s)"])
        #expect(report.plugins.isEmpty)
    }

    // MARK: The crash record

    /// The handler appends what was formatted when the plugin loaded (its file's identity) and the call; the next
    /// start reads it back for that file as it is, and not once the file changed.
    @Test func theCrashRecordNamesTheCallUntilTheFileChanges() throws {
        let (folder, plugin) = try Self.file("build 1")
        let record = (folder as NSString).appendingPathComponent("plugin-crashes")
        let slot = CrashSlotPlugin(name: "plugin dev.example.crashy (\(plugin))", source: plugin)
        let prefix = String(cString: slot.pointer.pointee.record)
        #expect(slot.pointer.pointee.record_length == prefix.utf8.count)
        #expect(String(cString: slot.pointer.pointee.name) == "plugin dev.example.crashy (\(plugin))")
        // As the handler writes it, after a line another writer left half-written.
        try ("half a line\n" + prefix + "receive\n").write(toFile: record, atomically: false, encoding: .utf8)

        let read = PluginCrashRecord(file: record)
        #expect(read.crash(of: plugin) == "receive")
        #expect(read.crashed(inFolders: [folder]).map(\.path) == [plugin])
        #expect(
            read.crashed(inFolders: [folder]).first?.line
                == "plugin \(plugin) crashed the host (in receive) at an earlier start: it runs in a worker process, "
                + "where a crash is survivable, until its file changes")

        try "build 2, longer".write(toFile: plugin, atomically: false, encoding: .utf8)
        #expect(PluginCrashRecord(file: record).crash(of: plugin) == nil)
        #expect(PluginCrashRecord(file: record).crashed(inFolders: [folder]).isEmpty)

        // A start forgets the lines no file matches any more; one that still matches stays.
        let other = (folder as NSString).appendingPathComponent("libother.so")
        try "other".write(toFile: other, atomically: false, encoding: .utf8)
        let otherPrefix = String(cString: CrashSlotPlugin(name: "plugin x", source: other).pointer.pointee.record)
        try (prefix + "receive\n" + otherPrefix + "lifecycle\n").write(
            toFile: record, atomically: false, encoding: .utf8)
        var pruned = PluginCrashRecord(file: record)
        pruned.forgetChangedFiles()
        #expect(pruned.crash(of: other) == "lifecycle")
        #expect(try String(contentsOfFile: record, encoding: .utf8) == otherPrefix + "lifecycle\n")
    }

    @Test func aPluginThatCrashedTheHostRunsInAWorkerWhateverTheAppSaid() {
        let rules = PlacementRules(crashedInProcess: ["/plugins/libcrashy.so"])
        #expect(rules.placement(forPluginAt: "/plugins/libcrashy.so", signed: false) == .process)
        #expect(rules.placement(forPluginAt: "/plugins/libother.so", signed: false) == .inProcess)
        #expect(PlacementRules().placement(forPluginAt: "/plugins/libcrashy.so", signed: false) == .inProcess)
    }

    /// The slot the handler reads: set around a call, put back after it (calls nest: a plugin's reply may reach
    /// another plugin), two stores each way.
    @MainActor @Test func theCrashSlotSaysWhichCallTheMainThreadIsIn() {
        let outer = CrashSlotPlugin(name: "plugin dev.example.outer (/p/libouter.so)", source: "/p/libouter.so")
        let inner = CrashSlotPlugin(name: "plugin dev.example.inner (/p/libinner.so)", source: "/p/libinner.so")
        func current() -> (UnsafePointer<strada_crash_plugin>?, String?) {
            let slot = strada_crash_now()
            return (slot.plugin, slot.call.map { String(cString: $0) })
        }
        #expect(current().0 == nil)
        outer.calling("receive") {
            #expect(current().0 == outer.pointer && current().1 == "receive")
            inner.calling("lifecycle") { #expect(current().0 == inner.pointer && current().1 == "lifecycle") }
            #expect(current().0 == outer.pointer && current().1 == "receive")
        }
        #expect(current().0 == nil && current().1 == nil)
    }
}

/// The probes of files first seen at start-up: what answers within the start-up's wait is taken, the rest is
/// handed on as it comes (probe children here are shells that answer, one at once and one after 2 s).
@Suite struct ProbeBatchTests {
    static let launcher = PluginProcessLauncher(
        executable: "/bin/sh",
        probeArguments: { file in
            let answer = #"{"path":"\#(file)","status":"loaded","id":"dev.example.x","components":["x"]}"#
            return ["-c", (file.hasSuffix("slow") ? "sleep 2; " : "") + "echo '\(answer)'"]
        },
        workerArguments: { _, _ in [] })

    @Test func whatAnswersInTimeIsTakenAndALateAnswerIsHandedOn() async throws {
        let later = Mutex<[(Int, PluginStatus)]>([])
        let batch = ProbeBatch(files: ["/plugins/libfast.so", "/plugins/libslow"], launcher: Self.launcher)
        let started = Date()
        let answered = batch.answers(within: 1) { index, status in later.withLock { $0.append((index, status)) } }
        #expect(Date().timeIntervalSince(started) < 1.9, "it waited for the slow one")
        #expect(answered.keys.sorted() == [0])
        #expect(answered[0]?.id == "dev.example.x" && answered[0]?.path == "/plugins/libfast.so")
        #expect(later.withLock { $0.isEmpty })
        let deadline = Date().addingTimeInterval(10)
        while later.withLock({ $0.isEmpty }) && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let late = later.withLock { $0 }
        #expect(late.map(\.0) == [1])
        #expect(late.first?.1.path == "/plugins/libslow" && late.first?.1.state == .loaded)
    }

    @Test func whenEveryProbeAnswersTheWaitEndsThen() {
        let batch = ProbeBatch(files: ["/plugins/liba.so", "/plugins/libb.so"], launcher: Self.launcher)
        let started = Date()
        let answered = batch.answers(within: 30) { _, _ in Issue.record("no answer is late") }
        #expect(answered.count == 2)
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
