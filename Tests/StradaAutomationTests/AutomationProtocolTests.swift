import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// The automation protocol: one vocabulary, and docs/automation.md documents exactly that vocabulary.
struct AutomationProtocolTests {
    static let page: String = {
        (try? String(contentsOfFile: Repository.path("docs/automation.md"), encoding: .utf8)) ?? ""
    }()

    /// The part of docs/automation.md between `## <heading>` and the next `## ` heading.
    static func section(_ heading: String) -> Substring {
        guard let start = page.range(of: "\n## \(heading)\n") else { return "" }
        let rest = page[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return rest[..<end]
    }

    @Test func theEventTableListsEveryEventAndNoOther() throws {
        var documented: Set<String> = []
        for line in Self.section("Events").split(separator: "\n") where line.hasPrefix("| `") {
            let firstColumn = line.dropFirst(2).prefix { $0 != "|" }
            for name in firstColumn.split(separator: "`").enumerated() where name.offset % 2 == 0 {
                documented.insert(String(name.element))
            }
        }
        #expect(!documented.isEmpty, "no event table under docs/automation.md's \"## Events\"")
        let known = Set(AutomationEvent.Name.allCases.filter { $0 != .benchmarkRoundtrip }.map(\.rawValue))
        #expect(documented.subtracting(known).sorted() == [], "documented but not an event")
        #expect(known.subtracting(documented).sorted() == [], "an event docs/automation.md does not list")
    }

    /// The tests' families of event names (TestSupport) are exactly the names with their prefix, so a test
    /// counting "every screen event" still counts every one when a name is added.
    @Test func theTestsEventFamiliesHoldEveryNameOfTheirPrefix() {
        func named(_ prefix: String) -> Set<AutomationEvent.Name> {
            Set(AutomationEvent.Name.allCases.filter { $0.rawValue.hasPrefix(prefix) })
        }
        #expect(AutomationEvent.Name.screenEvents == named("screen."))
        #expect(AutomationEvent.Name.stackChanges == named("screen.").subtracting([.screenError]))
        #expect(AutomationEvent.Name.commandResults == named("command."))
        let event = AutomationEvent.screenPopped(ScreenReport(url: "http://a/", title: "A", depth: 1, action: "back"))
        #expect(AutomationEvent.Name.stackChanges.contains(nameOf: event.json))
        #expect(!AutomationEvent.Name.commandResults.contains(nameOf: event.json))
        #expect(!AutomationEvent.Name.screenEvents.contains(nameOf: ["event": "screen.unknown"]))
    }

    @Test func theCommandExamplesCoverEveryCommandAndEachParses() throws {
        var documented: Set<String> = []
        for line in Self.section("Commands").split(separator: "\n") where line.hasPrefix("{\"command\"") {
            let command = try AutomationCommand(line: String(line))
            documented.insert(command.name.rawValue)
        }
        #expect(documented == Set(AutomationCommand.Name.allCases.map(\.rawValue)))
    }

    @Test func aBadCommandSaysWhatAWellFormedOneLooksLike() {
        #expect(throws: MalformedMessage(reason: "a command is a JSON object with a string \"command\"")) {
            try AutomationCommand(line: "[1]")
        }
        #expect(throws: MalformedMessage(reason: "choose needs a string \"control\" (a menu) and a number \"index\"")) {
            try AutomationCommand(line: #"{"command":"choose","control":"menu.menu","index":1.5}"#)
        }
        #expect(throws: MalformedMessage(reason: "visit's \"action\" is \"advance\" (the default) or \"replace\"")) {
            try AutomationCommand(line: #"{"command":"visit","url":"http://a/","action":"restore"}"#)
        }
        let chooseFiles = "choose-files needs a string \"control\" (a file-chooser) and \"paths\", absolute file paths"
        #expect(throws: MalformedMessage(reason: chooseFiles)) {
            try AutomationCommand(line: #"{"command":"choose-files","control":"page.file-chooser","paths":"/tmp/a"}"#)
        }
        #expect(throws: MalformedMessage(reason: chooseFiles)) {
            try AutomationCommand(line: #"{"command":"choose-files","control":"page.file-chooser","paths":[1]}"#)
        }
        do {
            _ = try AutomationCommand(line: #"{"command":"fly"}"#)
            Issue.record("an unknown command was accepted")
        } catch {
            #expect(error.reason.hasPrefix("unknown command \"fly\"; known: activate, choose"))
        }
    }

    @Test func eventsEncodeTheirNameAndFieldsWithSortedKeys() {
        let event = AutomationEvent.commandError(command: "activate", error: "no", details: ["control": "form.submit"])
        #expect(event.line == #"{"command":"activate","control":"form.submit","error":"no","event":"command.error"}"#)
        let screen = AutomationEvent.screenPushed(
            ScreenReport(url: "http://a/b", title: "B", depth: 2, action: "advance"))
        #expect(
            screen.line
                == #"{"action":"advance","depth":2,"event":"screen.pushed""#
                + #","stack":"main","title":"B","url":"http://a/b"}"#
        )
    }

    @Test func theStartupEventCarriesEachPhaseAndTheClockItIsDatedBy() {
        let event = AutomationEvent.hostStartup(
            phases: ["display": 21.04, "firstFrame": 312.46], mainClock: 123_456.78, beforeMain: 104.4)
        #expect(event.name == .hostStartup)
        #expect(event.name.isAlwaysReported)
        #expect(
            event.line
                == #"{"beforeMain":104,"event":"host.startup","mainClock":123456.8,"#
                + #""phases":{"display":21,"firstFrame":312.5}}"#)
    }

    @MainActor @Test func aChannelFiltersByPrefixButAlwaysReportsHostAndCommandEvents() {
        final class Lines { var all: [String] = [] }
        let lines = Lines()
        let channel = AutomationChannel(eventPrefixes: ["control"]) { lines.all.append($0) }
        channel.emit(.bridgeReady)
        channel.emit(.controlRemoved(id: "form.submit"))
        channel.emit(.hostExit(code: 0, reason: "done"))
        channel.emit(.commandOK(command: "reload"))
        #expect(
            lines.all.map { $0.components(separatedBy: "\"event\":\"")[1].prefix { $0 != "\"" } }
                == ["control.removed", "host.exit", "command.ok"])
    }

    @MainActor @Test func aChannelKnowsWhichEventNamesItWants() {
        let all = AutomationChannel(eventPrefixes: [""]) { _ in }
        #expect(AutomationEvent.Name.allCases.allSatisfy { all.wants($0) })
        let bridge = AutomationChannel(eventPrefixes: ["bridge", "page.fin"]) { _ in }
        #expect(bridge.wants(.bridgeReceived) && bridge.wants(.bridgeSent) && bridge.wants(.pageFinished))
        #expect(!bridge.wants(.pageCommitted) && !bridge.wants(.controlRemoved) && !bridge.wants(.benchmarkRoundtrip))
        #expect(bridge.wants(.hostReady) && bridge.wants(.commandError) && bridge.wants(.controls))
    }

    @Test(arguments: [
        WorkerMessage.ping, .pong, .create(instance: 3, component: "form"), .destroy(instance: 3),
        .receive(instance: 3, messageJSON: #"{"id":"1","component":"form","event":"connect","data":{"a":[1,2]}}"#),
        .lifecycle(instance: 3, event: 2), .activated(instance: 3, control: "submit"),
        .controlEvent(instance: 3, control: "menu", eventJSON: #"{"type":"chosen","index":1}"#),
        .hello(id: "dev.example", version: "1.0", abi: "1.0", components: ["a", "b"]),
        .error(message: "plugin x: bad — fix it", reason: "bad", remedy: "fix it"),
        .reply(instance: 1, messageJSON: #"{"id":"1","component":"form","event":"connect","data":{}}"#),
        .replyToEvent(instance: 1, event: "connect", dataJSON: #"{"x":1}"#),
        .setButton(instance: 1, button: ["id": "submit", "title": "Save"]), .removeButton(instance: 1, id: "submit"),
        .show(instance: 1, id: "menu", specJSON: #"{"kind":"toast","message":"hi"}"#), .remove(instance: 1, id: "menu"),
        .call(call: 4, action: "add", arguments: [20, 22]), .callResult(call: 4, result: 42, error: nil),
        .callResult(call: 5, result: nil, error: "action add takes 2 argument(s), got 0"),
    ])
    func everyWorkerMessageSurvivesItsOwnLine(message: WorkerMessage) {
        #expect(WorkerMessage(line: message.line) == message)
    }

    @Test func aHelloSaysItsWorkerProtocolAndOneWithoutSaysNone() {
        let hello = WorkerMessage.hello(id: "dev.example", version: "1.0", abi: "1.0", components: ["a"])
        #expect(hello == .hello(id: "dev.example", version: "1.0", abi: "1.0", components: ["a"], workerProtocol: 2))
        #expect(hello.line.contains(#""protocol":2"#))
        let older = #"{"op":"hello","id":"dev.example","version":"1.0","abi":"1.0","components":["a"]}"#
        #expect(
            WorkerMessage(line: older)
                == .hello(id: "dev.example", version: "1.0", abi: "1.0", components: ["a"], workerProtocol: 0))
    }

    @Test func receiveAndReplyLinesGiveTheirPayloadAsWrittenWithoutParsing() throws {
        let json = #"{"id":"7","component":"c","event":"e","data":{"s":"}\\n,\"message\":1"}}"#
        for message in [
            WorkerMessage.receive(instance: 42, messageJSON: json), .reply(instance: 42, messageJSON: json),
        ] {
            let (op, instance, payload) = try #require(WorkerMessage.payload(ofLine: message.line))
            #expect(op == (message == .receive(instance: 42, messageJSON: json) ? .receive : .reply))
            #expect(instance == 42 && payload == json)
        }
        // A raw newline (white space between tokens) would end the line: it is written as a space.
        let spread = "{\"id\":\"1\",\n\"component\":\"c\",\"event\":\"e\"}"
        #expect(!WorkerMessage.receive(instance: 1, messageJSON: spread).line.contains("\n"))
        #expect(WorkerMessage.payload(ofLine: WorkerMessage.ping.line) == nil)
        #expect(WorkerMessage.payload(ofLine: #"{"op":"reply","instance":x,"message":{}}"#) == nil)
    }

    @Test func everyWorkerOperationIsCoveredByTheRoundTripTest() {
        #expect(WorkerMessage.Op.allCases.count == 18)
        #expect(WorkerMessage(line: #"{"op":"teleport"}"#) == nil)
    }
}
