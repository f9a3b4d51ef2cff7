import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// A menu hangs from the control that opened it (issue 36): a menu the page displays in answer to a header-bar
/// press, naming no place of its own (upstream's web menu sends none), points at the pressed button — not at
/// the middle of the header bar — and still answers the page.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct MenuAnchorTests {
    @Test func aMenuOpenedByAHeaderBarPressPointsAtTheButton() async throws {
        let plugins = try PluginsDirectory.make(plugins: ["libStradaMenuPlugin.so", "libStradaOverflowMenuPlugin.so"])
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/menu-anchor.html"), arguments: ["--plugins", plugins])
        try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "overflow-menu.more" }
        let mark = host.events.count
        try host.send(["command": "activate", "control": "overflow-menu.more"])
        let menu = try await host.waitFor(.controlAdded, after: mark) { $0["control"]?["kind"] == "menu" }
        #expect(menu["control"]?["pointsAt"] == "overflow-menu.more", "\(menu)")
        let id = try #require(menu["control"]?["id"]?.stringValue)
        try host.sendLine(#"{"command": "choose", "control": "\#(id)", "index": 0}"#)
        try await host.waitFor(.pageTitle, after: mark) { $0["title"] == "chose 0" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}
