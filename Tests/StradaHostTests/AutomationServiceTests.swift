import Logging
import StradaAutomation
import StradaCore
import StradaEngineGTK
import Testing

@testable import StradaHost

/// Each automation command is one call on the target, answered with `command.ok` and the details a client
/// needs, or `command.error` saying what went wrong.
@MainActor
@Suite struct AutomationServiceTests {
    let target = RecordingAutomationTarget()
    let written = Lines()
    let service: AutomationService

    @MainActor final class Lines { var events: [AutomationEvent] = [] }

    init() {
        let channel = AutomationChannel(writeEvent: { [written] event, _ in written.events.append(event) })
        service = AutomationService(channel: channel, readsStandardInput: false, logger: Logger(label: "test"))
        service.start(target: target) { [] }
    }

    private func perform(_ line: String) throws -> [AutomationEvent] {
        written.events = []
        service.perform(try AutomationCommand(line: line))
        return written.events
    }

    @Test func controlActionsActOnTheNamedControlAndNameItInTheAnswer() throws {
        #expect(
            try perform(#"{"command":"choose","control":"menu","index":2}"#)
                == [.commandOK(command: "choose", details: ["control": "menu"])])
        target.controlError = .noSuchControl("gone")
        let answer = try perform(#"{"command":"activate","control":"gone"}"#)
        #expect(target.calls == ["act choose(index: 2) menu", "act activate gone"])
        #expect(
            answer == [
                .commandError(
                    command: "activate", error: ControlActionError.noSuchControl("gone").description,
                    details: ["control": "gone"])
            ])
    }

    @Test func aFileChooserIsAnsweredWithPathsAndAPrintRequestWithAFile() throws {
        #expect(
            try perform(#"{"command":"choose-files","control":"page.file-chooser","paths":["/tmp/a","/tmp/b"]}"#)
                == [.commandOK(command: "choose-files", details: ["control": "page.file-chooser"])])
        #expect(
            try perform(#"{"command":"print","control":"page.print","path":"/tmp/page.pdf"}"#)
                == [.commandOK(command: "print", details: ["control": "page.print"])])
        #expect(
            target.calls == [
                #"act chooseFiles(paths: ["/tmp/a", "/tmp/b"]) page.file-chooser"#,
                #"act print(path: "/tmp/page.pdf") page.print"#,
            ])
    }

    @Test func backAnswersWithTheDepthOrSaysThereIsNothingToGoBackTo() throws {
        target.depthAfterBack = 1
        #expect(try perform(#"{"command":"back"}"#) == [.commandOK(command: "back", details: ["depth": 1])])
        target.depthAfterBack = nil
        #expect(
            try perform(#"{"command":"back"}"#)
                == [.commandError(command: "back", error: "there is no screen to go back to")])
    }

    @Test func retryAndDismissModalSayWhenThereIsNothingToDo() throws {
        #expect(
            try perform(#"{"command":"retry"}"#)
                == [.commandError(command: "retry", error: "no error screen is shown: nothing to retry")])
        #expect(
            try perform(#"{"command":"dismiss-modal"}"#)
                == [.commandError(command: "dismiss-modal", error: "no modal is presented")])
        target.hasModal = true
        #expect(try perform(#"{"command":"dismiss-modal"}"#) == [.commandOK(command: "dismiss-modal")])
    }

    @Test func visitAndNavigateGoWhereTheyAreToldAndSayWhere() throws {
        #expect(
            try perform(#"{"command":"visit","url":"https://app.test/a","action":"replace"}"#)
                == [
                    .commandOK(command: "visit", details: ["url": "https://app.test/a", "action": "replace"])
                ])
        #expect(
            try perform(#"{"command":"navigate","url":"https://app.test/"}"#)
                == [.commandOK(command: "navigate", details: ["url": "https://app.test/"])])
        #expect(target.calls == ["visit https://app.test/a replace", "navigate https://app.test/"])
    }

    @Test func callAnswersWithThePluginsResultOrWhyThereIsNone() throws {
        target.plugins = ["p": .success(.number(3)), "refuses": .failure(.failed(reason: "no such action"))]
        #expect(
            try perform(#"{"command":"call","plugin":"p","action":"count"}"#)
                == [.commandOK(command: "call", details: ["plugin": "p", "action": "count", "result": 3])])
        #expect(
            try perform(#"{"command":"call","plugin":"refuses","action":"x"}"#)
                == [
                    .commandError(
                        command: "call", error: "no such action", details: ["plugin": "refuses", "action": "x"])
                ])
        #expect(
            try perform(#"{"command":"call","plugin":"missing","action":"x"}"#)
                == [.commandError(command: "call", error: "no loaded plugin with id missing")])
    }

    @Test func aScreenshotIsAnsweredWhenItIsWrittenOrCouldNotBe() throws {
        #expect(
            try perform(#"{"command":"screenshot","path":"/tmp/a.png"}"#)
                == [.commandOK(command: "screenshot", details: ["path": "/tmp/a.png"])])
        target.screenshotError = "no frame"
        #expect(
            try perform(#"{"command":"screenshot","path":"/tmp/b.png"}"#)
                == [
                    .commandError(
                        command: "screenshot", error: "the window could not be rendered to /tmp/b.png: no frame",
                        details: ["path": "/tmp/b.png"])
                ])
    }

    @Test func quitEndsTheSessionWithoutAnAnswerOfItsOwn() throws {
        #expect(try perform(#"{"command":"quit"}"#).isEmpty)
        #expect(target.calls == ["quit quit command"])
    }
}
