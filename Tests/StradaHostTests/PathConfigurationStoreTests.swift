import Foundation
import Logging
import StradaCore
import StradaNavigation
import Testing

@testable import StradaHost

/// Where path configurations come from: a file or the app's server; a bad source keeps the rules in force.
@Suite struct PathConfigurationStoreTests {
    @Test func sourcesAreServersForHTTPAndFilesOtherwise() {
        #expect(
            PathConfigurationSource("https://app.example/config.json") == .server("https://app.example/config.json"))
        #expect(PathConfigurationSource("file:///etc/app/config.json") == .file("/etc/app/config.json"))
        #expect(PathConfigurationSource("/tmp/x/../config.json") == .file("/tmp/config.json"))
    }

    @MainActor
    @Test func aBadFileKeepsTheRulesInForceAndTheLastGoodSourceWins() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let good = folder + "/good.json", bad = folder + "/bad.json"
        try #"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}]}"#.write(
            toFile: good, atomically: true, encoding: .utf8)
        try #"{"rules": [{"patterns": ["/new$"], "properties": {"context": "sheet"}}]}"#.write(
            toFile: bad, atomically: true, encoding: .utf8)
        let store = PathConfigurationStore(
            sources: [.file(good), .file(bad), .file(folder + "/missing.json")], cacheDirectory: folder,
            logger: Logger(label: "test"))
        var outcomes: [String] = []
        store.report = { source, outcome in
            switch outcome {
            case .success(let rules): outcomes.append("\((source as NSString).lastPathComponent): \(rules)")
            case .failure(let error): outcomes.append("\((source as NSString).lastPathComponent): \(error.reason)")
            }
        }
        store.load()
        #expect(store.current.properties(for: "https://app.example/posts/new").context == .modal)
        #expect(outcomes.count == 3)
        #expect(outcomes[0] == "good.json: 1")
        #expect(outcomes[1].hasPrefix("bad.json: rules[0].properties.context is \"sheet\""))
        #expect(outcomes[2] == "missing.json: cannot be read (check the path)")
    }
}

/// What a document holds that does nothing here is said once per document, not again for the same text.
@Suite struct PathConfigurationStoreWarningTests {
    @MainActor
    @Test func aDocumentsNoticesAreReportedOnceAndNotAgainForTheSameText() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let shared = folder + "/shared.json", plain = folder + "/plain.json"
        try #"{"rules": [{"patterns": [".*"], "properties": {"pull_to_refresh_enabled": true, "animated": false}},]}"#
            .write(toFile: shared, atomically: true, encoding: .utf8)
        try #"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}]}"#.write(
            toFile: plain, atomically: true, encoding: .utf8)
        let store = PathConfigurationStore(
            sources: [.file(shared), .file(plain)], cacheDirectory: folder, logger: Logger(label: "test"))
        var warnings: [(source: String, keys: [String])] = []
        store.warn = { source, notices in
            warnings.append(((source as NSString).lastPathComponent, notices.map { $0.key.isEmpty ? "," : $0.key }))
        }
        store.load()
        store.load()
        #expect(warnings.count == 1)
        #expect(warnings.first?.source == "shared.json")
        #expect(warnings.first?.keys == ["properties.animated", "properties.pull_to_refresh_enabled", ","])
    }
}
