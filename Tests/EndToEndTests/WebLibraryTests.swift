import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Our web library (`SDK/web/strada.js`) in the real engine: each page under `Fixtures/web/` runs its checks
/// against the real `strada-host` with the `echo` and `form` plugins loaded from their own .so files, and
/// reports "PASS" or "FAIL: <reason>" in `document.title`, which the host reports as a `page.title` event.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct WebLibraryTests {
    /// One page per behaviour (docs/conformance.md "Web side" W1–W3, the handshake, opt-out, both component styles,
    /// the globals).
    enum Page: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case handshake = "handshake.html"
        case api = "api.html"
        case bridgeElement = "bridge-element.html"
        case queue = "queue.html"
        case repeatedReplies = "repeated-replies.html"
        case disconnect = "disconnect.html"
        case optOutElement = "opt-out-element.html"
        case optOutPage = "opt-out-page.html"
        case frameworkFree = "framework-free.html"
        case stimulusDetected = "stimulus-auto.html"
        case stimulusExplicit = "stimulus-explicit.html"
        case globals = "globals.html"
        case existingBridge = "existing-bridge.html"
        case ownKeys = "own-keys.html"
        case replySizes = "reply-sizes.html"

        var testDescription: String {
            switch self {
            case .handshake:
                "handshake: <html> gets data-bridge-platform=linux and data-bridge-components, kept current on "
                    + "(un)register"
            case .api:
                "W1: Strada.web and BridgeComponent API; send adds metadata.url and the reply carries the data back"
            case .bridgeElement:
                "W1: BridgeElement title order, disabled for true or linux, enableForComponent, bridge attributes, "
                    + "click"
            case .queue:
                "W2: messages sent before the adapter are queued and flushed in order; unsupported ones dropped"
            case .repeatedReplies: "W3: a callback survives repeated replies to one message"
            case .disconnect: "W3: disconnecting a component removes its callbacks, queued ones included"
            case .optOutElement: "opt-out: data-controller-optout-linux on the element keeps it web-only"
            case .optOutPage: "opt-out: data-controller-optout-linux on <html> keeps the page's components web-only"
            case .frameworkFree: "framework-free components connect and disconnect with their elements"
            case .stimulusDetected:
                "Stimulus style: with window.Stimulus.Controller, BridgeComponent is a Controller registered with "
                    + "application.register"
            case .stimulusExplicit:
                "Stimulus style: Strada.useStimulus(Controller, application) and Strada.registerComponent"
            case .globals:
                "globals: window.HotwireNative.web, Strada.web and webBridge are one bridge the adapter attaches to"
            case .existingBridge: "globals: an already installed HotwireNative.web is reused, not replaced"
            case .ownKeys: "replies arrive as parsed JSON: a \"__proto__\" key is an own property, not the prototype"
            case .replySizes:
                "replies of 100 B to 1 MiB and a batch of fifty arrive intact and in order, as script text or as a "
                    + "function's argument"
            }
        }

        var path: String { Repository.path("Tests/EndToEndTests/Fixtures/web/\(rawValue)") }
    }

    /// What one page run produced: its verdict and every automation event.
    struct Run {
        let title: String
        let events: [JSON]

        /// Messages native received from the page, in order.
        var received: [JSON] {
            events.filter { HostProcess.name(of: $0) == .bridgeReceived }.compactMap { $0["message"] }
        }
    }

    /// Runs `page` in the real host until it reports PASS or FAIL, then quits the host (which must exit 0).
    static func run(_ page: Page) async throws -> Run {
        let plugins = try PluginsDirectory.make(plugins: ["libStradaEchoPlugin.so", "libStradaFormPlugin.so"])
        let host = try HostProcess(page: page.path, arguments: ["--plugins", plugins])
        let verdict = try await host.waitFor(.pageTitle, timeout: 40) {
            guard let title = $0["title"]?.stringValue else { return false }
            return title == "PASS" || title.hasPrefix("FAIL")
        }
        try host.send(["command": "quit"])
        let status = try await host.waitForExit()
        #expect(status == 0, "strada-host exit status for \(page.rawValue)")
        return Run(title: verdict["title"]?.stringValue ?? "", events: host.events)
    }

    @Test("The page's checks pass in the real engine", arguments: Page.allCases)
    func pagePasses(_ page: Page) async throws {
        let run = try await Self.run(page)
        #expect(run.title == "PASS", "\(page.rawValue) reported: \(run.title)")

        // Whatever a page marks as never to be delivered (opted out, unsupported, removed from the queue)
        // never reaches native, and the library never sends anything native has to reject.
        let leaked = run.received.filter { $0["data"]?["mustNotArrive"] == true }
        #expect(leaked.isEmpty, "delivered although the page marked them mustNotArrive: \(leaked)")
        let rejected = run.events.filter {
            HostProcess.name(of: $0) == .bridgeRejected || HostProcess.name(of: $0) == .bridgeDropped
        }
        #expect(rejected.isEmpty, "rejected or dropped by native: \(rejected)")
    }

    @Test func queuedMessagesReachNativeInTheOrderTheyWereSentWithConsecutiveIds() async throws {
        let run = try await Self.run(.queue)
        #expect(run.title == "PASS", "queue.html reported: \(run.title)")
        let received = run.received.prefix(4).map {
            "\($0["component"]?.stringValue ?? "?")/\($0["event"]?.stringValue ?? "?")#\($0["id"]?.stringValue ?? "?")"
        }
        #expect(received == ["echo/first#1", "echo/second#2", "echo/third#3", "echo/fourth#4"])
        #expect(!run.received.contains { $0["component"] != "echo" }, "only echo messages reach native")
    }

    @Test func repeatedRepliesToOneMessageAreSentByNativeUnderOneId() async throws {
        let run = try await Self.run(.repeatedReplies)
        #expect(run.title == "PASS", "repeated-replies.html reported: \(run.title)")
        let sent = run.events.filter { HostProcess.name(of: $0) == .bridgeSent }.compactMap { $0["message"] }
        let repeats = sent.filter { $0["event"] == "repeat" }
        #expect(repeats.count == 8)
        #expect(Set(repeats.compactMap { $0["id"]?.stringValue }).count == 2)
    }
}
