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
