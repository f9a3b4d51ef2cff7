import StradaButtonComponent
import StradaCore
import StradaTesting
import Testing

/// The first-party `button` component, driven as a page would through StradaTesting's harness.
@MainActor
@Suite struct ButtonComponentTests {
    /// A message of the page at the harness's URL (see ``PageMessages``).
    static func message(_ id: String, _ event: String, _ data: String) -> String {
        PageMessages.message("button", id, event, data)
    }

    @Test func eachSideIsItsOwnButtonAndAPressAnswersTheMessageThatMadeIt() throws {
        let page = BridgeHarness(components: [ButtonComponent.self])
        page.send(json: Self.message("1", "connect", #"{"title":"Save","side":"right"}"#))
        page.send(json: Self.message("2", "left", #"{"title":"Back","image":"go-previous-symbolic"}"#))
        let right = try #require(page.controls.buttons["button.button-right"])
        let left = try #require(page.controls.buttons["button.button-left"])
        #expect(right.title == "Save" && right.placement == .end)
        #expect(left.title == "Back" && left.placement == .start && left.iconName == "go-previous-symbolic")

        #expect(page.controls.press("button.button-left"))
        #expect(page.lastReply?.id == "2" && page.lastReply?.event == "left")
        #expect(page.controls.press("button.button-right"))
        #expect(page.lastReply?.id == "1" && page.lastReply?.event == "connect")
    }

    @Test func aRepeatedConnectUpdatesTheButtonInPlace() {
        let page = BridgeHarness(components: [ButtonComponent.self])
        page.send(json: Self.message("1", "connect", #"{"title":"Save"}"#))
        page.send(json: Self.message("2", "connect", #"{"title":"Saved"}"#))
        #expect(page.controls.buttons.count == 1)
        #expect(page.controls.buttons["button.button-right"]?.title == "Saved")
    }

    /// A disconnect that names its side removes that button only: the other side's element is still on the
    /// page (a frame re-rendered around one of them). Without a side, both go.
    @Test func aDisconnectRemovesItsSidesButtonOrBothWithoutASide() {
        let page = BridgeHarness(components: [ButtonComponent.self])
        page.send(json: Self.message("1", "connect", #"{"title":"Save","side":"right"}"#))
        page.send(json: Self.message("2", "left", #"{"title":"Back"}"#))
        page.send(json: Self.message("3", "disconnect", #"{"side":"left"}"#))
        #expect(page.controls.buttons.keys.sorted() == ["button.button-right"])
        page.send(json: Self.message("4", "left", #"{"title":"Back"}"#))
        page.send(json: Self.message("5", "disconnect", "{}"))
        #expect(page.controls.buttons.isEmpty)
    }
}
