import StradaCore
import StradaTesting
import Testing

@MainActor
struct BridgeDelegateTests {
    let harness = BridgeHarness(
        components: [RecordingComponent.self, OtherComponent.self], url: "https://app.test/messages/new")
    var webView: InMemoryWebView { harness.webView }
    var delegate: BridgeDelegate { harness.delegate }

    func message(
        _ component: String = "one", event: String = "connect", url: String = "https://app.test/messages/new",
        id: String = "1"
    ) -> Message {
        Message(
            id: id, component: component, event: event, metadata: .init(url: url),
            jsonData: #"{"metadata":{"url":"\#(url)"}}"#)
    }

    @Test("D1 ready registers all component names and creates none")
    func readyRegistersAllComponentNamesWithoutCreatingAny() {
        let before = RecordingComponent.instancesCreated
        harness.send(json: #""ready""#)
        #expect(harness.calls == [.register(["one", "two"])])
        #expect(RecordingComponent.instancesCreated == before)
        #expect(delegate.component(named: "one") == nil)
    }

    @Test("D2 one component per name, created lazily, reused; initialization notified once")
    func createsOneComponentPerNameLazilyAndReusesIt() throws {
        let before = RecordingComponent.instancesCreated
        var initialized: [String] = []
        delegate.onComponentInitialized = { initialized.append($0.componentName) }
        #expect(delegate.bridgeDidReceiveMessage(message(id: "1")))
        #expect(delegate.bridgeDidReceiveMessage(message(event: "other", id: "2")))
        #expect(RecordingComponent.instancesCreated == before + 1)
        #expect(initialized == ["one"])
        let component: RecordingComponent = try #require(delegate.component())
        #expect(component.received.map(\.id) == ["1", "2"])
    }

    @Test("D3 a message for an unregistered component is ignored") func dropsMessagesForUnregisteredComponents() {
        #expect(!delegate.bridgeDidReceiveMessage(message("nope")))
    }

    @Test func dropsMessagesWhileThePageIsInactive() {
        delegate.onViewDidDisappear()
        #expect(!delegate.bridgeDidReceiveMessage(message()))
        #expect(delegate.component(named: "one") == nil)
        delegate.onViewWillAppear()
        #expect(delegate.bridgeDidReceiveMessage(message()))
    }

    @Test("D5 D7 losing the web view deactivates the page and replies return false")
    func losingTheWebViewDeactivatesAndDropsReplies() throws {
        delegate.bridgeDidReceiveMessage(message())
        let component: RecordingComponent = try #require(delegate.component())
        delegate.webViewDidBecomeDeactivated()
        #expect(!delegate.bridgeDidReceiveMessage(message(id: "2")))
        #expect(!component.reply(to: "connect"))
        #expect(harness.calls.isEmpty)
    }

    @Test(
        "D3 URL rule: live URL, fragment and trailing slash tolerated; other pages rejected",
        arguments: [
            ("https://app.test/messages/new", true),
            ("https://app.test/messages/new/", true),  // trailing slash
            ("https://app.test/messages/new#top", true),  // fragment change
            ("https://app.test/messages/old", false),  // a previous page
            ("https://app.test/messages/new?page=2", false),  // another query is another page
            ("https://other.test/messages/new", false),  // another origin
        ])
    func routesByTheURLRule(url: String, delivered: Bool) {
        #expect(delegate.bridgeDidReceiveMessage(message(url: url)) == delivered)
    }

    @Test("D4 the live URL wins over the original location after a redirect")
    func theWebViewsLiveURLWinsOverTheOriginalLocationAfterARedirect() {
        webView.currentURL = "https://app.test/messages/42"
        #expect(delegate.bridgeDidReceiveMessage(message(url: "https://app.test/messages/42")))
        #expect(!delegate.bridgeDidReceiveMessage(message(url: "https://app.test/messages/new")))
    }

    @Test("D4 without a web view URL the location is used") func fallsBackToTheLocationWhenTheWebViewHasNoURL() {
        webView.currentURL = nil
        #expect(delegate.bridgeDidReceiveMessage(message()))
    }

    @Test func dropsMessagesWithoutMetadataURL() {
        let bare = Message(id: "1", component: "one", event: "connect", metadata: nil, jsonData: "{}")
        #expect(!delegate.bridgeDidReceiveMessage(bare))
    }

    @Test func destroyingComponentsCallsOnDestroyAndForgetsThem() throws {
        delegate.bridgeDidReceiveMessage(message())
        let component: RecordingComponent = try #require(delegate.component())
        delegate.destroyComponents()
        #expect(component.destroyed)
        #expect(delegate.component(named: "one") == nil)
    }
}
