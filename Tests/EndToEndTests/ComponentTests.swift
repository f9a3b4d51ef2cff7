import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Every first-party component, end to end: the demo app (`Examples/demo`, served by its own Python server on
/// a free port) in the real `strada-host`, with the component plugins loaded from their own .so files.
///
/// Each test follows one message all the way: the page's web component sends it → the plugin shows the
/// native control with the page's properties (`control.added`, or the one-shot events `toast`,
/// `window.title`, `clipboard`, `window.colorScheme`, `browser.opened`) → the test acts on the control
/// through the automation channel as a user would (activate / choose / confirm / dismiss / type) → the reply
/// reaches the page → the page reacts, and says so in `document.title` (`page.title` events, "<component>:
/// <what happened>"). The demo pages accept `?open=1` to bring their control up by themselves.
///
/// After every test: a control is never added twice without being removed in between (a repeated `connect`
/// replaces), and no well-formed message was dropped or rejected on the way.
@Suite(.serialized, .oneAtATime, .temporaryDirectories, .timeLimit(.minutes(3)))
struct ComponentTests {
    // MARK: form

    @Test func formSubmitButtonIsANativeHeaderButtonThatSubmitsTheWebForm() async throws {
        let demo = try await DemoSession.start("form", plugins: ["Form"])
        defer { demo.cleanUp() }

        let connect = try await demo.received("form", "connect")
        #expect(connect.data["submitTitle"] == "Send")
        let submit = try await demo.control(.controlAdded, "form.submit")
        #expect(submit["kind"] == "button")
        #expect(submit["title"] == "Send")
        #expect(submit["placement"] == "end")
        #expect(submit["style"] == "suggested")
        #expect(submit["enabled"] == true)

        try await demo.host.waitFor(.pageFinished)
        let mark = demo.mark
        try demo.host.send(["command": "activate", "control": "form.submit"])
        let reply = try await demo.sent("form", after: mark)
        #expect(reply.id == connect.id, "native answers the page's connect message")
        try await demo.title("form: native “Send” pressed, submitting", after: mark)
        // The page posts the form; the server redirects; the old page's button goes with the old page.
        try await demo.event(.controlRemoved, after: mark) { $0["id"] == "form.submit" }
        try await demo.event(.pageCommitted, after: mark) {
            $0["url"]?.stringValue?.hasPrefix(demo.server.url + "form/sent?id=") == true
        }
        try await demo.finish()
    }

    // MARK: menu

    @Test func menuShowsTheItemsAndTheChosenIndexGoesBackToThePage() async throws {
        let demo = try await DemoSession.start("menu?open=1", plugins: ["Menu"])
        defer { demo.cleanUp() }

        let display = try await demo.received("menu", "display")
        let menu = try await demo.control(.controlAdded, "menu.menu")
        #expect(menu["kind"] == "menu")
        #expect(menu["title"] == "Sort by")
        let items = menu["items"]?.arrayValue ?? []
        #expect(items.compactMap { $0["title"]?.stringValue } == ["Name", "Date modified", "Size", "Type"])
        #expect(items.compactMap { $0["index"]?.intValue } == [0, 1, 2, 3])
        let anchor = try #require(menu["anchor"]?.objectValue, "the menu points at the page's button")
        #expect((anchor["width"]?.numberValue ?? 0) > 1 && (anchor["height"]?.numberValue ?? 0) > 1)

        let mark = demo.mark
        try demo.host.sendLine(#"{"command":"choose","control":"menu.menu","index":2}"#)
        let reply = try await demo.sent("menu", after: mark)
        #expect(reply.id == display.id)
        #expect(reply.data["selectedIndex"] == 2)
        try await demo.title("menu: sorted by Size", after: mark)
        try await demo.event(.controlRemoved, after: mark) { $0["id"] == "menu.menu" }
        try await demo.finish()
    }

    @Test func dismissingTheMenuRemovesItAndSendsNothing() async throws {
        let demo = try await DemoSession.start("menu?open=1", plugins: ["Menu"])
        defer { demo.cleanUp() }

        try await demo.control(.controlAdded, "menu.menu")
        let mark = demo.mark
        try demo.host.send(["command": "dismiss", "control": "menu.menu"])
        try await demo.event(.commandOK, after: mark) { $0["command"] == "dismiss" }
        try await demo.event(.controlRemoved, after: mark) { $0["id"] == "menu.menu" }
        try await demo.settle()
        #expect(demo.events(after: mark, named: .bridgeSent).isEmpty, "a dismissed menu does not reply")
        #expect(demo.events(after: mark, named: .pageTitle).isEmpty, "the page did not react")
        try await demo.finish()
    }

    // MARK: overflow-menu

    @Test func overflowMenuButtonOpensThePagesMenu() async throws {
        let demo = try await DemoSession.start("overflow-menu", plugins: ["OverflowMenu"])
        defer { demo.cleanUp() }

        let connect = try await demo.received("overflow-menu", "connect")
        #expect(connect.data["label"] == "More actions")
        let more = try await demo.control(.controlAdded, "overflow-menu.more")
        #expect(more["kind"] == "button")
        #expect(more["icon"] == "view-more-symbolic")
        #expect(more["title"] == "More actions")
        #expect(more["placement"] == "end")

        try await demo.host.waitFor(.pageFinished)
        let mark = demo.mark
        try demo.host.send(["command": "activate", "control": "overflow-menu.more"])
        let reply = try await demo.sent("overflow-menu", after: mark)
        #expect(reply.id == connect.id)
        try await demo.title("overflow-menu: menu opened", after: mark)
        try await demo.finish()
    }

    // MARK: button

    @Test func buttonsGoToTheirSidesAndARepeatedConnectUpdatesTheButtonInPlace() async throws {
        let demo = try await DemoSession.start("button", plugins: ["Button"])
        defer { demo.cleanUp() }

        let left = try await demo.control(.controlAdded, "button.button-left")
        #expect(left["placement"] == "start")
        #expect(left["icon"] == "go-previous-symbolic")
        #expect(left["title"] == "All components")
        let right = try await demo.control(.controlAdded, "button.button-right")
        #expect(right["placement"] == "end")
        #expect(right["title"] == "Edit")
        try await demo.host.waitFor(.pageFinished)

        // Edit → the page enters edit mode and sends the button again as "Done": same control, changed.
        var mark = demo.mark
        try demo.host.send(["command": "activate", "control": "button.button-right"])
        try await demo.title("button: editing", after: mark)
        let done = try await demo.event(.controlChanged, after: mark) {
            Self.control($0)?["title"] == "Done"
        }
        #expect(Self.control(done)?["id"] == "button.button-right")
        try await demo.received("button", "connect", after: mark) { $0["title"] == "Done" }

        mark = demo.mark
        try demo.host.send(["command": "activate", "control": "button.button-right"])
        try await demo.title("button: done editing", after: mark)
        try await demo.event(.controlChanged, after: mark) { Self.control($0)?["title"] == "Edit" }
        let added = demo.host.events(named: .controlAdded).compactMap { Self.control($0)?["id"]?.stringValue }
        #expect(added.sorted() == ["button.button-left", "button.button-right"], "each button was added once")

        // The left button is the page's link to the index: pressing it navigates, and both buttons go.
        mark = demo.mark
        try demo.host.send(["command": "activate", "control": "button.button-left"])
        let reply = try await demo.sent("button", after: mark)
        #expect(reply.event == "left")
        try await demo.event(.pageCommitted, after: mark) { $0["url"]?.stringValue == demo.server.url }
        try await demo.event(.controlRemoved, after: mark) { $0["id"] == "button.button-left" }
        try await demo.event(.controlRemoved, after: mark) { $0["id"] == "button.button-right" }
        try await demo.finish()
    }

    /// Two buttons made with `connect {side}` (the contract's main form) must each answer their own message.
    @Test
    func eachButtonMadeWithConnectAnswersItsOwnMessage() async throws {
        let library = URL(fileURLWithPath: Repository.path("SDK/web/strada.js")).absoluteString
        let page = try TemporaryDirectory.file(
            named: "buttons.html",
            contents: """
                <!DOCTYPE html><html><head><title>start</title>
                <script src="\(library)"></script></head><body>
                <button data-controller="bridge--button" data-side="left">Left</button>
                <button data-controller="bridge--button" data-side="right">Right</button>
                <script>
                  class SideButton extends Strada.BridgeComponent {
                    static get component() { return "button" }
                    connect() {
                      const side = this.element.dataset.side
                      this.send("connect", { title: side, side }, () => { document.title = "pressed " + side })
                    }
                  }
                  Strada.registerComponent(SideButton)
                </script></body></html>
                """)
        let plugins = try PluginsDirectory.make(plugins: ["libStradaButtonPlugin.so"])
        let host = try HostProcess(page: page, arguments: ["--plugins", plugins])
        try await host.waitFor(.controlAdded) { Self.control($0)?["id"] == "button.button-left" }
        try await host.waitFor(.controlAdded) { Self.control($0)?["id"] == "button.button-right" }
        try host.send(["command": "activate", "control": "button.button-left"])
        try await host.waitFor(.pageTitle) { $0["title"]?.stringValue?.hasPrefix("pressed") == true }
        #expect(
            host.events(named: .pageTitle).contains { $0["title"] == "pressed left" })
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    // MARK: alert

    @Test func alertIsANativeDialogAndConfirmingRepliesToThePage() async throws {
        let demo = try await DemoSession.start("alert?open=1", plugins: ["Alert"])
        defer { demo.cleanUp() }

        let show = try await demo.received("alert", "show")
        let dialog = try await demo.control(.controlAdded, "alert.alert")
        #expect(dialog["kind"] == "dialog")
        #expect(dialog["title"] == "Delete this draft?")
        #expect(dialog["message"] == "“Re: plans for the weekend” will be deleted permanently.")
        #expect(dialog["confirm"] == "Delete")
        #expect(dialog["dismiss"] == "Keep")
        #expect(dialog["destructive"] == true)

        let mark = demo.mark
        try demo.host.send(["command": "confirm", "control": "alert.alert"])
        let reply = try await demo.sent("alert", after: mark)
        #expect(reply.id == show.id)
        try await demo.title("alert: confirmed, draft deleted", after: mark)
        try await demo.event(.controlRemoved, after: mark) { $0["id"] == "alert.alert" }
        try await demo.finish()
    }

    @Test func dismissingTheAlertSendsNothingAndKeepsTheDraft() async throws {
        let demo = try await DemoSession.start("alert?open=1", plugins: ["Alert"])
        defer { demo.cleanUp() }

        try await demo.control(.controlAdded, "alert.alert")
        let mark = demo.mark
        try demo.host.send(["command": "dismiss", "control": "alert.alert"])
        try await demo.event(.controlRemoved, after: mark) { $0["id"] == "alert.alert" }
        try await demo.settle()
        #expect(demo.events(after: mark, named: .bridgeSent).isEmpty, "a dismissed alert does not reply")
        #expect(demo.events(after: mark, named: .pageTitle).isEmpty, "the page did not delete anything")
        try await demo.finish()
    }

    // MARK: toast

    @Test func toastShowsThePagesMessageNatively() async throws {
        let demo = try await DemoSession.start("toast?open=1", plugins: ["Toast"])
        defer { demo.cleanUp() }

        let show = try await demo.received("toast", "show")
        #expect(show.data["message"] == "Saved to Drafts")
        try await demo.event(.toast) { $0["message"] == "Saved to Drafts" }
        try await demo.title("toast: native toast “Saved to Drafts”")
        try await demo.settle()
        #expect(demo.events(after: 0, named: .bridgeSent).isEmpty, "a toast needs no reply")
        #expect(demo.events(after: 0, named: .controlAdded).isEmpty, "a toast is not a lasting control")
        try await demo.finish()
    }

    // MARK: page

    @Test func pageSetsTheWindowTitleAndAPushStateTabChangeStillRoutes() async throws {
        let demo = try await DemoSession.start("page?open=1", plugins: ["Page"])
        defer { demo.cleanUp() }

        let connect = try await demo.received("page", "connect")
        #expect(connect.data["title"] == "Inbox")
        try await demo.event(.windowTitle) {
            $0["title"] == "Inbox" && $0["subtitle"] == "3 unread"
        }
        let reply = try await demo.sent("page")
        #expect(reply.id == connect.id)
        #expect(reply.data["title"] == "Inbox")

        // The page got that reply: only then (`demo:reply`) does it switch tabs. (Its status title for the
        // reply is not waited for: the next one replaces it at once and WebKit may report only the last.)
        // ?open=1: the page then switches to the Archive tab with history.pushState (same document): its
        // `change` carries the new URL, routes, and native replies to `connect` again.
        let change = try await demo.received("page", "change")
        #expect(change.url == demo.server.url + "page?tab=archive")
        try await demo.event(.windowTitle) {
            $0["title"] == "Archive" && $0["subtitle"] == "128 conversations"
        }
        try await demo.title("page: window shows “Archive”")
        #expect(demo.events(after: 0, named: .pageCommitted).count == 1, "pushState is not a new page")
        try await demo.finish()
    }

    // MARK: search

    @Test func searchEntryRepliesWithEveryQueryAndThePageFiltersAcrossPushState() async throws {
        let demo = try await DemoSession.start("search", plugins: ["Search"])
        defer { demo.cleanUp() }

        let connect = try await demo.received("search", "connect")
        let search = try await demo.control(.controlAdded, "search.search")
        #expect(search["kind"] == "search")
        #expect(search["placeholder"] == "Search fruit and vegetables")
        #expect(search["text"] == "")
        try await demo.host.waitFor(.pageFinished)

        var mark = demo.mark
        try demo.host.send(["command": "type", "control": "search.search", "text": "an"])
        let first = try await demo.sent("search", after: mark)
        #expect(first.id == connect.id)
        #expect(first.data["query"] == "an")
        try await demo.title("search: 3 results for “an”", after: mark)

        // The page pushed ?q=an (same document): the entry stays and keeps replying to the same message.
        mark = demo.mark
        try demo.host.send(["command": "type", "control": "search.search", "text": "ch"])
        let second = try await demo.sent("search", after: mark)
        #expect(second.id == connect.id)
        try await demo.title("search: 1 result for “ch”", after: mark)
        try demo.host.send(["command": "controls"])
        let controls = try await demo.event(.controls, after: mark)
        let listed = controls["controls"]?.arrayValue ?? []
        #expect(listed.contains { $0["id"] == "search.search" && $0["text"] == "ch" })
        #expect(demo.events(after: 0, named: .pageCommitted).count == 1, "pushState is not a new page")
        #expect(demo.events(after: 0, named: .controlRemoved).isEmpty)
        try await demo.finish()
    }

    // MARK: share

    @Test func shareButtonCopiesTheLinkWithAToastOrOpensTheBrowser() async throws {
        let demo = try await DemoSession.start("share", plugins: ["Share"])
        defer { demo.cleanUp() }

        let connect = try await demo.received("share", "connect")
        #expect(connect.data["url"]?.stringValue == demo.server.url + "share")
        #expect(connect.data["title"] == "A walk along the canal")
        try await demo.title("share: native Share button ready")
        let button = try await demo.control(.controlAdded, "share.share")
        #expect(button["icon"] == "emblem-shared-symbolic")
        #expect(button["placement"] == "end")

        var mark = demo.mark
        try demo.host.send(["command": "activate", "control": "share.share"])
        let menu = try await demo.control(.controlAdded, "share.share-menu", after: mark)
        #expect(menu["title"] == "A walk along the canal")
        #expect(
            (menu["items"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue } == [
                "Copy link", "Open in browser",
            ])
        mark = demo.mark
        try demo.host.sendLine(#"{"command":"choose","control":"share.share-menu","index":0}"#)
        try await demo.event(.clipboard, after: mark) { $0["text"]?.stringValue == demo.server.url + "share" }
        try await demo.event(.toast, after: mark) { $0["message"] == "Link copied" }

        mark = demo.mark
        try demo.host.send(["command": "activate", "control": "share.share"])
        try await demo.control(.controlAdded, "share.share-menu", after: mark)
        mark = demo.mark
        try demo.host.sendLine(#"{"command":"choose","control":"share.share-menu","index":1}"#)
        try await demo.event(.browserOpened, after: mark) { $0["url"]?.stringValue == demo.server.url + "share" }
        #expect(demo.events(after: 0, named: .bridgeSent).isEmpty, "share does not reply")
        try await demo.finish()
    }

    // MARK: theme

    @Test func themeSetsTheColourSchemeAndLeavingThePageRestoresTheDesktops() async throws {
        let demo = try await DemoSession.start("theme?theme=dark", plugins: ["Theme"])
        defer { demo.cleanUp() }

        let connect = try await demo.received("theme", "connect")
        #expect(connect.data["theme"] == "dark")
        try await demo.event(.windowColorScheme) { $0["scheme"] == "dark" }
        try await demo.title("theme: native scheme dark")

        let mark = demo.mark
        try await demo.navigate("")
        try await demo.event(.windowColorScheme, after: mark) { $0["scheme"] == "system" }
        try await demo.finish()
    }

    // MARK: Across components: lifecycle

    @Test func navigatingAwayRemovesThePagesControlsAndResetsTitleAndScheme() async throws {
        let demo = try await DemoSession.start("button", plugins: ["Button", "Search", "Page", "Theme"])
        defer { demo.cleanUp() }

        try await demo.control(.controlAdded, "button.button-left")
        try await demo.control(.controlAdded, "button.button-right")
        var mark = demo.mark
        try await demo.navigate("search")
        try await demo.event(.controlRemoved, after: mark) { $0["id"] == "button.button-left" }
        try await demo.event(.controlRemoved, after: mark) { $0["id"] == "button.button-right" }
        try await demo.control(.controlAdded, "search.search", after: mark)

        mark = demo.mark
        try await demo.navigate("page")
        try await demo.event(.controlRemoved, after: mark) { $0["id"] == "search.search" }
        try await demo.event(.windowTitle, after: mark) { $0["title"] == "Inbox" }

        mark = demo.mark
        try await demo.navigate("theme?theme=dark")
        // The page's title goes with the page: the window shows the new document's own title, no subtitle.
        let reset = try await demo.event(.windowTitle, after: mark) { $0["title"] != "Inbox" }
        #expect(reset["subtitle"] == .null)
        try await demo.event(.windowColorScheme, after: mark) { $0["scheme"] == "dark" }

        mark = demo.mark
        try await demo.navigate("")
        try await demo.event(.windowColorScheme, after: mark) { $0["scheme"] == "system" }
        try demo.host.send(["command": "controls"])
        let controls = try await demo.event(.controls, after: mark)
        #expect(controls["controls"]?.arrayValue?.isEmpty == true, "no control survives into the index page")
        try await demo.finish()
    }

    @Test func aMenuLeftOpenIsGoneOnTheNextPageAndCannotReplyThere() async throws {
        let demo = try await DemoSession.start("menu?open=1", plugins: ["Menu"])
        defer { demo.cleanUp() }

        try await demo.control(.controlAdded, "menu.menu")
        let mark = demo.mark
        // A new document with the same component (its message ids start again at "1").
        try await demo.navigate("menu")
        try await demo.event(.controlRemoved, after: mark) { $0["id"] == "menu.menu" }
        try demo.host.sendLine(#"{"command":"choose","control":"menu.menu","index":1}"#)
        let error = try await demo.event(.commandError, after: mark) { $0["command"] == "choose" }
        #expect(error["error"] == "no native control with id \"menu.menu\"")
        try await demo.settle()
        #expect(demo.events(after: mark, named: .bridgeSent).isEmpty, "nothing is delivered to the later page")
        // (The new document's title is "" until its <title> is parsed.)
        let titles = demo.events(after: mark, named: .pageTitle).compactMap { $0["title"]?.stringValue }
        #expect(
            titles.allSatisfy { $0.isEmpty || $0 == "Menu · Strada demo" }, "the later page did not react: \(titles)")
        try await demo.finish()
    }

    @Test func anAlertLeftOpenIsGoneOnTheNextPageAndCannotBeConfirmedThere() async throws {
        let demo = try await DemoSession.start("alert?open=1", plugins: ["Alert"])
        defer { demo.cleanUp() }

        try await demo.control(.controlAdded, "alert.alert")
        let mark = demo.mark
        try await demo.navigate("alert")
        try await demo.event(.controlRemoved, after: mark) { $0["id"] == "alert.alert" }
        try demo.host.send(["command": "confirm", "control": "alert.alert"])
        let error = try await demo.event(.commandError, after: mark) { $0["command"] == "confirm" }
        #expect(error["error"] == "no native control with id \"alert.alert\"")
        try await demo.settle()
        #expect(demo.events(after: mark, named: .bridgeSent).isEmpty, "nothing is delivered to the later page")
        // (The new document's title is "" until its <title> is parsed.)
        let titles = demo.events(after: mark, named: .pageTitle).compactMap { $0["title"]?.stringValue }
        #expect(
            titles.allSatisfy { $0.isEmpty || $0 == "Alert · Strada demo" }, "the later page did not react: \(titles)")
        try await demo.finish()
    }

    @Test func afterTheFormPostsRedirectTheResultPagesComponentsStillWork() async throws {
        let demo = try await DemoSession.start("form", plugins: ["Form", "Toast", "Button"])
        defer { demo.cleanUp() }

        try await demo.control(.controlAdded, "form.submit")
        try await demo.host.waitFor(.pageFinished)
        let mark = demo.mark
        try demo.host.send(["command": "activate", "control": "form.submit"])
        // POST /form → 303 → GET /form/sent?id=N: the web view's URL is the redirect's target, and so is
        // every message's metadata.url; the URL rule accepts them.
        let committed = try await demo.event(.pageCommitted, after: mark) {
            $0["url"]?.stringValue?.contains("/form/sent?id=") == true
        }
        let resultURL = try #require(committed["url"]?.stringValue)
        let flash = try await demo.received("toast", "show", after: mark)
        #expect(flash.url == resultURL)
        #expect(flash.data["message"]?.stringValue?.hasPrefix("Message ") == true)
        try await demo.event(.toast, after: mark) { $0["message"]?.stringValue?.hasSuffix(" sent") == true }
        let newMessage = try await demo.control(.controlAdded, "button.button-right", after: mark)
        #expect(newMessage["title"] == "New message")
        try await demo.event(.pageFinished, after: mark) { $0["url"]?.stringValue == resultURL }

        // The result page's button replies to the result page, which follows its link back to the form.
        let back = demo.mark
        try demo.host.send(["command": "activate", "control": "button.button-right"])
        try await demo.sent("button", after: back)
        try await demo.event(.pageCommitted, after: back) { $0["url"]?.stringValue == demo.server.url + "form" }
        try await demo.control(.controlAdded, "form.submit", after: back)
        try await demo.finish()
    }

    // MARK: Helpers

    static func control(_ event: JSON) -> JSON? { event["control"] }
}

// MARK: - The demo app and the host, together

/// One bridge message as the automation channel reports it.
struct BridgeMessage {
    let id: String
    let component: String
    let event: String
    let data: JSONObject
    /// `data.metadata.url`: the page URL the web library sent it from.
    var url: String? { data["metadata"]?["url"]?.stringValue }

    init?(_ event: JSON) {
        guard let message = event["message"], let id = message["id"]?.stringValue,
            let component = message["component"]?.stringValue, let name = message["event"]?.stringValue
        else { return nil }
        self.id = id
        self.component = component
        self.event = name
        self.data = message["data"]?.objectValue ?? [:]
    }
}

/// The demo server and a host showing one of its pages, with some first-party plugins.
final class DemoSession: Sendable {
    /// `Examples/demo/server.py` on a free port.
    let server: LocalHTTPServer
    let host: HostProcess

    private init(server: LocalHTTPServer, host: HostProcess) {
        self.server = server
        self.host = host
    }

    /// Starts the server and the host on `path` (relative to the server's root) with `plugins`
    /// (`"Menu"` → libStradaMenuPlugin.so), and waits until the host is ready.
    static func start(_ path: String, plugins names: [String]) async throws -> DemoSession {
        // The server stops when released, the plugins directory goes when the test ends.
        let server = try await LocalHTTPServer.running(
            script: Repository.path("Examples/demo/server.py"), arguments: ["--port", "0"])
        let plugins = try PluginsDirectory.make(plugins: names.map { "libStrada\($0)Plugin.so" })
        let host = try HostProcess(page: server.url + path, arguments: ["--plugins", plugins])
        let session = DemoSession(server: server, host: host)
        let ready = try await host.waitFor(.hostReady, timeout: 60)
        #expect(ready["components"]?.arrayValue?.count == names.count, "every plugin loaded: \(ready)")
        return session
    }

    /// How many events there are now: pass it as `after` to wait only for what follows.
    var mark: Int { host.events.count }

    /// Events named `name` after the first `mark` events.
    func events(after mark: Int, named name: AutomationEvent.Name) -> [JSON] {
        host.events.dropFirst(mark).filter { HostProcess.name(of: $0) == name }
    }

    /// The first event named `name` after `mark` matching `predicate`; throws `HostProcess.Timeout`.
    @discardableResult
    func event(
        _ name: AutomationEvent.Name, after mark: Int = 0, timeout: Double = 30,
        where predicate: (JSON) -> Bool = { _ in true }
    ) async throws -> JSON {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let match = events(after: mark, named: name).first(where: predicate) { return match }
            try await Task.sleep(for: .milliseconds(20))
        } while Date() < deadline
        // One last look, then the host's own timeout error (with every event so far).
        if let match = events(after: mark, named: name).first(where: predicate) { return match }
        throw HostProcess.Timeout(waitingFor: "\(name.rawValue) after event #\(mark)", seen: host.lines)
    }

    /// The control of the first `kind` event ("control.added"/"control.changed") for `id` after `mark`.
    @discardableResult
    func control(_ kind: AutomationEvent.Name, _ id: String, after mark: Int = 0) async throws -> JSON {
        let event = try await event(kind, after: mark) { $0["control"]?["id"]?.stringValue == id }
        return event["control"] ?? [:]
    }

    /// The first message the page sent to `component` with `event` after `mark`.
    @discardableResult
    func received(
        _ component: String, _ event: String, after mark: Int = 0,
        where predicate: (JSONObject) -> Bool = { _ in true }
    ) async throws -> BridgeMessage {
        let match = try await self.event(.bridgeReceived, after: mark) {
            guard let message = BridgeMessage($0) else { return false }
            return message.component == component && message.event == event && predicate(message.data)
        }
        return try #require(BridgeMessage(match))
    }

    /// The first reply native sent to the page for `component` after `mark`.
    @discardableResult
    func sent(_ component: String, after mark: Int = 0) async throws -> BridgeMessage {
        let match = try await event(.bridgeSent, after: mark) { BridgeMessage($0)?.component == component }
        return try #require(BridgeMessage(match))
    }

    /// Waits until the page's document.title is `title` (the page reacted).
    func title(_ title: String, after mark: Int = 0) async throws {
        try await event(.pageTitle, after: mark) { $0["title"]?.stringValue == title }
    }

    /// Loads `path` on the demo server through the automation channel, and waits until it finished loading.
    func navigate(_ path: String) async throws {
        let mark = self.mark
        let url = server.url + path
        try host.send(["command": "navigate", "url": url])
        try await event(.pageFinished, after: mark) { $0["url"]?.stringValue == url }
    }

    /// Lets anything that would (wrongly) follow arrive before checking that it did not.
    func settle() async throws {
        try await Task.sleep(for: .milliseconds(800))
    }

    /// The checks every test ends with, then quits the host (which must exit 0).
    func finish() async throws {
        var added: Set<String> = []
        for event in host.events {
            switch HostProcess.name(of: event) {
            case .controlAdded:
                let id = event["control"]?["id"]?.stringValue ?? "?"
                #expect(!added.contains(id), "control \(id) was added twice without a removal in between")
                added.insert(id)
            case .controlRemoved:
                added.remove(event["id"]?.stringValue ?? "?")
            case .bridgeDropped, .bridgeRejected:
                Issue.record("a message did not reach its component: \(event)")
            default:
                break
            }
        }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    /// Stops the server (the host stops with its last reference; the plugins directory goes with the test).
    func cleanUp() {
        server.stop()
    }
}
