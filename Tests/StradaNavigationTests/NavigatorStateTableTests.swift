import Foundation
import StradaCore
import Testing

@testable import StradaNavigation

/// docs/lifecycle.md's tables of the navigator's states and of the Turbo adapter's messages, checked against
/// the code: every state the navigator has is in the table and nothing else, and every message the adapter
/// posts is one the navigator decodes and the table lists.
@Suite struct NavigatorStateTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The first column of the table under `heading` in docs/lifecycle.md: the names in backticks.
    static func firstColumn(under heading: String) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/lifecycle.md"), encoding: .utf8)
        let section = try #require(text.range(of: heading)).upperBound
        var names: [String] = []
        var inTable = false
        for line in text[section...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("|") {
                inTable = true
                let cell = line.split(separator: "|").first ?? ""
                names += cell.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map {
                    String($0.element)
                }
            } else if inTable {
                break
            }
        }
        return names
    }

    /// Every state, written out so that a new case fails to compile here until it is listed.
    static func name(of state: PendingVisit) -> String {
        switch state {
        case .none, .startOver, .coldLoad, .afterPop(_, .refresh), .afterPop(_, .proposal): state.name
        }
    }

    @Test func theStateTableListsExactlyTheNavigatorsStates() throws {
        let states: [PendingVisit] = [
            .none, .startOver, .coldLoad, .afterPop(url: "", then: .refresh), .afterPop(url: "", then: .proposal(1)),
        ]
        let documented = try Self.firstColumn(under: "### The navigator's states")
        #expect(documented.sorted() == states.map(Self.name(of:)).sorted())
    }

    @Test func everyMessageTheAdapterPostsIsDecodedAndDocumented() throws {
        let script = try String(
            contentsOf: Self.root.appendingPathComponent("SDK/web/turbo-adapter.js"), encoding: .utf8)
        // The messages the adapter posts: `post({ turbo: "<name>", …`.
        let posted = Set(
            script.components(separatedBy: "turbo: \"").dropFirst().compactMap { $0.split(separator: "\"").first }
                .map(String.init))
        let documented = Set(try Self.firstColumn(under: "And the Turbo adapter's messages"))
        #expect(!posted.isEmpty)
        #expect(posted == documented)
        for name in posted {
            let message: JSON = [
                "turbo": .string(name), "proposal": 1, "location": "https://app.test/", "identifier": "1",
                "statusCode": 404,
            ]
            #expect(TurboEvent(message) != nil, "\(name) is not decoded")
        }
    }
}
