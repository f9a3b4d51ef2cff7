import Foundation
import Logging
import TestSupport
import Testing

@testable import StradaPluginHost

/// How the host knows a plugin's components without opening it: the plugin manifest cache (by file identity) and
/// the installed manifest, and the rule that picks between them and a probe.
@Suite(.temporaryDirectories)
struct LazyPluginTests {
    static let path = "/plugins/libcounter.so"

    static func loaded(_ path: String, id: String = "dev.example.counter") -> PluginStatus {
        PluginStatus(path: path, state: .loaded, id: id, version: "1.2.0", abi: "1.0", components: ["counter"])
    }

    // MARK: The rule

    @Test func aFileTheCacheKnowsIsDeclaredFromTheCacheAsProbed() {
        let declaration = DeclaredPlugin.declaration(
            of: Self.path, cached: Self.loaded(Self.path), manifest: .success(nil), trust: nil)
        #expect(
            declaration
                == .declared(
                    DeclaredPlugin(
                        path: Self.path, id: "dev.example.counter", version: "1.2.0", componentNames: ["counter"],
                        probed: true, manifest: .some(nil))))
    }

    @Test func aManifestWithIdAndComponentsDeclaresTheFileNotProbedYet() {
        let manifest = PluginManifest(id: "dev.example.counter", components: ["counter", "tally"])
        let declaration = DeclaredPlugin.declaration(
            of: Self.path, cached: nil, manifest: .success(manifest), trust: nil)
        #expect(
            declaration
                == .declared(
                    DeclaredPlugin(
                        path: Self.path, id: "dev.example.counter", version: "0.0.0",
                        componentNames: ["counter", "tally"], probed: false, manifest: manifest)))
    }

    @Test(arguments: [
        PluginManifest?.none, PluginManifest(id: "dev.example.counter"), PluginManifest(components: ["counter"]),
        PluginManifest(id: "dev.example.counter", components: []),
        PluginManifest(id: "dev.example.counter", components: ["no spaces"]),
    ])
    func withoutAnIdAndValidComponentsTheFileIsProbed(manifest: PluginManifest?) {
        #expect(
            DeclaredPlugin.declaration(of: Self.path, cached: nil, manifest: .success(manifest), trust: nil) == .probe)
    }

    @Test func anUntrustedFileIsRefusedEvenWhenTheCacheKnowsIt() {
        let refusal = PluginLoadError(path: Self.path, reason: "refused: writable", remedy: "chmod go-w")
        let declaration = DeclaredPlugin.declaration(
            of: Self.path, cached: Self.loaded(Self.path), manifest: .success(nil), trust: refusal)
        #expect(declaration == .refused(refusal))
    }

    @Test func aManifestNamingAnotherABIIsRefusedBeforeAnyCodeRuns() {
        let manifest = PluginManifest(id: "dev.example.counter", components: ["counter"], abi: "2.0")
        let declaration = DeclaredPlugin.declaration(
            of: Self.path, cached: nil, manifest: .success(manifest), trust: nil)
        #expect(declaration == .refused(.otherMajor(Self.path, 2)))
    }

    /// A plugin whose folder cannot be read is refused with the same error whether it runs in the host's process
    /// (``PluginRegistry/loadAll(except:)``) or in a worker (``PluginRegistry/declarations(ofIsolated:)``).
    @MainActor @Test func aPluginInAFolderThatCannotBeReadIsRefusedWhereverItRuns() {
        let registry = PluginRegistry(directories: ["/nonexistent/plugins"], staging: false, logger: Logger(label: "t"))
        let inProcess = registry.loadAll().errors
        #expect(inProcess == [.unreadableDirectory("/nonexistent/plugins")])
        let isolated = registry.declarations(ofIsolated: ["/nonexistent/plugins/libcounter.so"])
        #expect(isolated == inProcess.map { .refused($0) })
    }

    // MARK: The cache

    @Test func theCacheRemembersWhatLoadedByFileIdentityAndForgetsAChangedFile() throws {
        let folder = try TemporaryDirectory.make("cache")
        let plugin = (folder as NSString).appendingPathComponent("libcounter.so")
        try "build 1".write(toFile: plugin, atomically: false, encoding: .utf8)
        let file = (folder as NSString).appendingPathComponent("strada/plugin-manifests")
        var cache = PluginManifestCache(file: file)
        #expect(cache.status(of: plugin) == nil)
        let crashed = PluginStatus(path: plugin + "-other", state: .crashed, components: ["x"])
        cache.remember([Self.loaded(plugin), crashed])
        #expect(cache.status(of: plugin)?.components == ["counter"])
        // Another host reads what this one wrote.
        #expect(PluginManifestCache(file: file).status(of: plugin)?.id == "dev.example.counter")
        #expect(PluginManifestCache(file: file).status(of: plugin + "-other") == nil)

        // A rebuild (new size and time) is not known; remembering it replaces the old line.
        try "build 2, longer".write(toFile: plugin, atomically: false, encoding: .utf8)
        #expect(PluginManifestCache(file: file).status(of: plugin) == nil)
        var again = PluginManifestCache(file: file)
        again.remember([Self.loaded(plugin, id: "dev.example.counter2")])
        #expect(PluginManifestCache(file: file).status(of: plugin)?.id == "dev.example.counter2")
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
    }
}

extension LazyPluginTests {
    @Test func aCacheLineThatIsNotOneIsSkippedAndTheLinesAroundItStillCount() throws {
        let folder = try TemporaryDirectory.make("cache-lines")
        let first = (folder as NSString).appendingPathComponent("libfirst.so")
        let second = (folder as NSString).appendingPathComponent("libsecond.so")
        try "first".write(toFile: first, atomically: false, encoding: .utf8)
        try "second".write(toFile: second, atomically: false, encoding: .utf8)
        let file = (folder as NSString).appendingPathComponent("plugin-manifests")
        var cache = PluginManifestCache(file: file)
        cache.remember([Self.loaded(first, id: "dev.example.first")])
        // Another writer's garbage (no tabs, one tab, an empty line) between two good lines, and no final newline.
        let written = try String(contentsOfFile: file, encoding: .utf8)
        try (written + "garbage\n\nkey only\tno json\n").write(toFile: file, atomically: false, encoding: .utf8)
        cache = PluginManifestCache(file: file)
        cache.remember([Self.loaded(second, id: "dev.example.second")])
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try String(text.dropLast()).write(toFile: file, atomically: false, encoding: .utf8)

        let read = PluginManifestCache(file: file)
        #expect(read.status(of: first)?.id == "dev.example.first")
        #expect(read.status(of: second)?.id == "dev.example.second")
        #expect(text.split(separator: "\n").count == 2)
    }
}

extension LazyPluginTests {
    // MARK: Reading a manifest

    @Test func aManifestIsReadWholeAndOneThatCannotBeReadSaysWhy() throws {
        let folder = try TemporaryDirectory.make("manifests")
        let plugin = (folder as NSString).appendingPathComponent("libcounter.so")
        let manifest = PluginManifest.path(forPlugin: plugin)
        #expect(try PluginLoader.readManifest(forPlugin: plugin).get() == nil)  // none beside it

        // Longer than one read (16 KiB): every component is there.
        let names = (0..<1_200).map { "component-\($0)" }
        let quoted = names.map { "\"\($0)\"" }.joined(separator: ", ")
        try "{\"id\": \"dev.example.counter\", \"components\": [\(quoted)]}".write(
            toFile: manifest, atomically: false, encoding: .utf8)
        #expect(try PluginLoader.readManifest(forPlugin: plugin).get()?.components == names)

        try Data([0x7B, 0xFF, 0xFE, 0x7D]).write(to: URL(fileURLWithPath: manifest))
        #expect(
            PluginLoader.readManifest(forPlugin: plugin).failure?.reason
                == "its manifest \(manifest) is invalid: it cannot be read (not UTF-8 text)")

        try FileManager.default.removeItem(atPath: manifest)
        try FileManager.default.createDirectory(atPath: manifest, withIntermediateDirectories: false)
        #expect(
            PluginLoader.readManifest(forPlugin: plugin).failure?.reason
                == "its manifest \(manifest) is invalid: it cannot be read (Is a directory)")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

extension LazyPluginTests {
    @Test(arguments: [
        "libcounter.so", "/plugins/libcounter.so", "/plugins.d/libcounter", "libcounter", "/plugins/lib.counter.so",
        "/plugins/.hidden", "relative/dir.x/libé.so",
    ])
    func aPluginsSiblingFileIsNamedAsNSStringWouldNameIt(_ plugin: String) {
        for ext in ["json", "signature.json"] {
            let expected = ((plugin as NSString).deletingPathExtension as NSString).appendingPathExtension(ext)
            #expect(PluginManifest.sibling(ofPlugin: plugin, extension: ext) == expected)
        }
    }
}
