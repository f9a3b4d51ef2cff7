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

    /// Runs `body` with ``folder()``, removed afterwards.
    static func withFolder(_ body: (_ folder: String, _ own: String, _ pay: String, _ vendor: String) throws -> Void)
        throws
    {
        let (folder, own, pay, vendor) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder, own, pay, vendor)
    }

    @Test func withoutIsolateOnlyWhatTheAppOrASignatureChoosesRunsInAWorker() throws {
        try Self.withFolder { folder, own, pay, vendor in
            let none = PlacementRules()
            #expect(none.placement(forPluginAt: own) == .inProcess, "your own build: in the host's process")
            #expect(none.placement(forPluginAt: pay).isolated, "from a signed package: a worker")
            #expect(none.placement(forPluginAt: pay).name == "sandbox", "… in the sandbox")
            #expect(HostPlugins.plan([folder], rules: none).isolated == [pay])
            #expect(HostPlugins.plan([folder], rules: none).files == [own, pay, vendor, folder + "/not-a-plugin"])

            let app = PlacementRules(overrides: [
                "com.vendor": .init(isolation: .process), "dev.example.pay": .init(isolation: .inProcess),
                "dev.example.own": .init(isolation: .sandbox),
            ])
            #expect(app.placement(forPluginAt: vendor) == .process, "the app's word: a plain worker")
            #expect(app.placement(forPluginAt: pay) == .inProcess, "the app trusts the third party")
            guard case .sandbox(let sandbox) = app.placement(forPluginAt: own) else {
                Issue.record("the app's \"sandbox\" for its own build")
                return
            }
            #expect(sandbox.network == false, "sandboxed; no network unless granted")
            #expect(HostPlugins.plan([folder], rules: app).isolated == [own, vendor])
        }
    }

    @Test func theCommandLineAsksForAWorkerAtLeast() throws {
        try Self.withFolder { folder, own, pay, vendor in
            let isolate = PlacementRules(
                overrides: ["dev.example.own": .init(isolation: .inProcess)], isolateEveryPlugin: true)
            #expect(isolate.placement(forPluginAt: own) == .process, "--isolate: in-process still means a worker")
            #expect(isolate.placement(forPluginAt: pay).name == "sandbox", "a third party's: the sandbox")
            #expect(isolate.placement(forPluginAt: vendor) == .process)
            #expect(
                HostPlugins.plan([folder], rules: isolate).isolated == [own, pay, vendor], "every file but the folder")
            let sandbox = PlacementRules(
                overrides: ["com.vendor": .init(isolation: .process)], isolateEveryPlugin: true,
                sandboxEveryPlugin: true)
            #expect(sandbox.placement(forPluginAt: own).name == "sandbox", "--sandbox")
            #expect(sandbox.placement(forPluginAt: vendor) == .process, "the app's word for one plugin wins")
        }
    }

    @Test func theRulesAreAValueThatPluginListAsks() throws {
        try Self.withFolder { folder, own, pay, vendor in
            let rules = PlacementRules(overrides: ["com.vendor": .init(isolation: .process)])
            #expect(rules.placement(forPluginAt: own).name == "in process")
            #expect(rules.placement(forPluginAt: vendor).name == "worker")
            #expect(rules.placement(forPluginAt: pay).name == "sandbox")
            #expect(HostPlugins.plan([folder], rules: rules).isolated == [pay, vendor])
            #expect(PlacementRules(isolateEveryPlugin: true).placement(forPluginAt: own).name == "worker")
        }
    }

    @Test func theSessionsStaticsAreTheRulesInForce() {
        defer {
            PluginGrants.overrides = [:]
            PluginGrants.isolateEveryPlugin = false
            PluginGrants.sandboxEveryPlugin = false
        }
        PluginGrants.overrides = ["com.vendor": .init(isolation: .process)]
        PluginGrants.isolateEveryPlugin = true
        let rules = PluginGrants.rules
        #expect(rules.overrides == ["com.vendor": .init(isolation: .process)])
        #expect(rules.isolateEveryPlugin && !rules.sandboxEveryPlugin)
    }
}
