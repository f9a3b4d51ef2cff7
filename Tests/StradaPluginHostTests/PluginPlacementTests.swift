import Foundation
import Testing

@testable import StradaPluginHost

/// Where each plugin runs: the app definition's `"isolation"`, the command line's `--isolate` / `--sandbox`, and
/// a signature beside a plugin installed from a package.
@MainActor
@Suite(.serialized) struct PluginPlacementTests {
    /// A plugins folder with your own build (`libown.so`), a third party's from a signed package (`libpay.so`)
    /// and a vendor's (`libvendor.so`), each with a manifest naming its id.
    static func folder() throws -> (folder: String, own: String, pay: String, vendor: String) {
        let folder = NSTemporaryDirectory() + "placement-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (stem, id) in [("libown", "dev.example.own"), ("libpay", "dev.example.pay"), ("libvendor", "com.vendor")] {
            try "ELF".write(toFile: "\(folder)/\(stem).so", atomically: true, encoding: .utf8)
            try #"{"id": "\#(id)"}"#.write(toFile: "\(folder)/\(stem).json", atomically: true, encoding: .utf8)
        }
        try "{}".write(
            toFile: PluginInstaller.signaturePath(forPlugin: folder + "/libpay.so"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder + "/not-a-plugin", withIntermediateDirectories: true)
        return (folder, folder + "/libown.so", folder + "/libpay.so", folder + "/libvendor.so")
    }

    static func reset() {
        PluginGrants.overrides = [:]
        PluginGrants.isolateEveryPlugin = false
        PluginGrants.sandboxEveryPlugin = false
    }

    @Test func withoutIsolateOnlyWhatTheAppOrASignatureChoosesRunsInAWorker() throws {
        let (folder, own, pay, vendor) = try Self.folder()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            Self.reset()
        }
        Self.reset()
        #expect(PluginGrants.placement(forPluginAt: own) == .inProcess, "your own build: in the host's process")
        #expect(PluginGrants.placement(forPluginAt: pay).isolated, "from a signed package: a worker")
        #expect(PluginGrants.sandbox(forPluginAt: pay) != nil, "… in the sandbox")
        #expect(HostPlugins.plan([folder]).isolated == [pay])
        #expect(HostPlugins.plan([folder]).files == [own, pay, vendor, folder + "/not-a-plugin"])

        PluginGrants.overrides = [
            "com.vendor": .init(isolation: .process), "dev.example.pay": .init(isolation: .inProcess),
            "dev.example.own": .init(isolation: .sandbox),
        ]
        #expect(PluginGrants.placement(forPluginAt: vendor) == .process, "the app's word: a plain worker")
        #expect(PluginGrants.placement(forPluginAt: pay) == .inProcess, "the app trusts the third party")
        #expect(PluginGrants.sandbox(forPluginAt: own)?.network == false, "sandboxed; no network unless granted")
        #expect(HostPlugins.plan([folder]).isolated == [own, vendor])
    }

    @Test func theCommandLineAsksForAWorkerAtLeast() throws {
        let (folder, own, pay, vendor) = try Self.folder()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            Self.reset()
        }
        Self.reset()
        PluginGrants.isolateEveryPlugin = true
        PluginGrants.overrides = ["dev.example.own": .init(isolation: .inProcess)]
        #expect(PluginGrants.placement(forPluginAt: own) == .process, "--isolate: in-process still means a worker")
        #expect(PluginGrants.sandbox(forPluginAt: pay) != nil, "a third party's: the sandbox")
        #expect(PluginGrants.placement(forPluginAt: vendor) == .process)
        #expect(HostPlugins.plan([folder]).isolated == [own, pay, vendor], "every file but the folder")
        PluginGrants.sandboxEveryPlugin = true
        PluginGrants.overrides = ["com.vendor": .init(isolation: .process)]
        #expect(PluginGrants.sandbox(forPluginAt: own) != nil, "--sandbox")
        #expect(PluginGrants.placement(forPluginAt: vendor) == .process, "the app's word for one plugin wins")
    }

    @Test func theRulesAreAValueThatPluginListAsks() throws {
        let (folder, own, pay, vendor) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rules = PlacementRules(overrides: ["com.vendor": .init(isolation: .process)])
        #expect(rules.placement(forPluginAt: own).name == "in process")
        #expect(rules.placement(forPluginAt: vendor).name == "worker")
        #expect(rules.placement(forPluginAt: pay).name == "sandbox")
        #expect(HostPlugins.plan([folder], rules: rules).isolated == [pay, vendor])
        #expect(PlacementRules(isolateEveryPlugin: true).placement(forPluginAt: own).name == "worker")
    }
}
