import Foundation
import Logging
import TestSupport
import Testing

@testable import StradaPluginHost

/// The registrations a registry offers pages for plugins it only declared (none opened): each component name once,
/// served by the first plugin in load order that provides it, with that plugin's grant.
@MainActor
@Suite(.temporaryDirectories)
struct RegistryRegistrationsTests {
    /// A folder holding `libNAME.so` (never opened: its manifest declares it) and its manifest.
    func folder(_ name: String, id: String, components: [String], origin: String) throws -> String {
        let folder = try TemporaryDirectory.make(name)
        chmod(folder, 0o755)
        let plugin = (folder as NSString).appendingPathComponent("lib\(name).so")
        try "not opened".write(toFile: plugin, atomically: false, encoding: .utf8)
        chmod(plugin, 0o644)
        let names = components.map { "\"\($0)\"" }.joined(separator: ", ")
        try """
        {"id": "\(id)", "version": "1.0.0", "abi": "1.0", "components": [\(names)], "origins": ["\(origin)"]}
        """.write(toFile: PluginManifest.path(forPlugin: plugin), atomically: false, encoding: .utf8)
        return folder
    }

    @Test func aNameClaimedTwiceIsServedByTheFirstPluginWithItsGrantAndListedOnce() throws {
        let first = try folder("first", id: "dev.test.first", components: ["echo"], origin: "https://a.example")
        let second = try folder(
            "second", id: "dev.test.second", components: ["echo", "other"], origin: "https://b.example")
        let registry = PluginRegistry(directories: [first, second], staging: false, logger: Logger(label: "test"))
        let report = registry.loadAll()
        #expect(report.errors.isEmpty)
        #expect(report.conflicts == ["echo"])

        let registrations = registry.registrations
        #expect(registrations.map(\.name) == ["echo", "other"])
        let echo = try #require(registrations.first)
        #expect(echo.refusal(forPage: "https://a.example/") == nil)
        #expect(echo.refusal(forPage: "https://b.example/")?.contains("plugin dev.test.first") == true)
        let other = try #require(registrations.last)
        #expect(other.refusal(forPage: "https://b.example/") == nil)
        #expect(other.refusal(forPage: "https://a.example/")?.contains("plugin dev.test.second") == true)
        #expect(registry.plugins.isEmpty)  // declared, none opened
    }
}
