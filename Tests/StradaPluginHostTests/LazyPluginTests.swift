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
