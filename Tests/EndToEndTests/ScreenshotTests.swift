import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// The `screenshot` command: the whole window, with what is open over it, whenever it is asked for.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct ScreenshotTests {
    /// Asked for the moment a popover menu opens — when GTK has not drawn the window again yet — the picture is
    /// the whole window, its size, with the popover where it points; not the popover alone.
    @Test func aScreenshotTheMomentAMenuOpensIsTheWholeWindowWithTheMenuOverIt() async throws {
        let demo = try await DemoSession.start("menu", plugins: ["Menu"])
        defer { demo.cleanUp() }
        try await demo.event(.pageFinished)
        // The same page again, opening its menu as it loads: the window shows the first one until the second
        // paints, so the only change in the menu's column is the menu.
        var mark = demo.mark
        try demo.host.send(["command": "navigate", "url": demo.server.url + "menu?open=1"])
        let menu = try await demo.control(.controlAdded, "menu.menu", after: mark)
        let folder = try TemporaryDirectory.make("shots")
        let open = folder + "/open.png"
        try demo.host.send(["command": "screenshot", "path": open])
        try await demo.event(.commandOK, after: mark) { $0["command"] == "screenshot" }

        // The same window without the menu.
        mark = demo.mark
        try demo.host.send(["command": "dismiss", "control": "menu.menu"])
        try await demo.event(.controlRemoved, after: mark) { $0["id"] == "menu.menu" }
        let closed = folder + "/closed.png"
        try demo.host.send(["command": "screenshot", "path": closed])
        try await demo.event(.commandOK, after: mark) { $0["command"] == "screenshot" }

        let anchor = try #require(menu["anchor"]?.objectValue, "the menu points at the page's button")
        let left = try #require(anchor["x"]?.intValue), width = try #require(anchor["width"]?.intValue)
        let top = try #require(anchor["y"]?.intValue), height = try #require(anchor["height"]?.intValue)
        let difference = try await Self.compare(closed, open, columns: (left - 60, left + width + 60))
        let sizes = try #require(difference["size"] as? [[Int]])
        #expect(sizes[1] == sizes[0], "the picture with the menu open is the window's size")
        #expect(sizes[0][0] > 600 && sizes[0][1] > 400, "a window, not a popover: \(sizes[0])")
        #expect(difference["opaque"] as? Double == 1, "the header bar is in the picture")
        // The menu: a box of changed pixels below the button (the web view starts under the header bar),
        // centred on it.
        let box = try #require(difference["box"] as? [Int], "the menu is in the picture")
        #expect(box[2] - box[0] > 100 && box[3] - box[1] > 100, "a menu-sized change: \(box)")
        #expect(box[1] > top + height, "below the button, not the page repainted: \(box)")
        #expect(abs((box[0] + box[2]) / 2 - (left + width / 2)) < 20, "centred on the button: \(box)")
        try await demo.finish()
    }

    /// Over a page that never stops repainting, GTK has dropped the window's picture about one time in three
    /// (until it draws the web process's next frame): every screenshot is still the whole window, never the
    /// open menu alone at its size.
    @Test func everyScreenshotOverAPageThatKeepsRepaintingIsTheWholeWindow() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/busy-menu.html"),
            arguments: ["--plugins", try PluginsDirectory.make(plugins: ["libStradaMenuPlugin.so"])])
        try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "menu.menu" }
        let folder = try TemporaryDirectory.make("shots")
        var sizes: [[Int]] = []
        for shot in 1...10 {
            let path = folder + "/\(shot).png"
            let mark = host.events.count
            try host.send(["command": "screenshot", "path": path])
            try await host.waitFor(.commandOK, after: mark) { $0["command"] == "screenshot" }
            let size = try SingleInstanceTests.pictureSize(path)
            sizes.append([size.0, size.1])
        }
        #expect(Set(sizes).count == 1, "every picture is the window's size: \(sizes)")
        #expect(sizes[0][0] > 600 && sizes[0][1] > 400, "a window, not a popover: \(sizes[0])")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    /// `Fixtures/picture-difference.py`'s answer for two pictures of the window.
    static func compare(_ before: String, _ after: String, columns: (Int, Int)) async throws -> [String: Any] {
        let output = try await ProcessRunner.check(
            "/usr/bin/python3",
            [
                Repository.path("Tests/EndToEndTests/Fixtures/picture-difference.py"), before, after,
                String(columns.0), String(columns.1),
            ])
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }
}
