import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// `<input type=file>` and `window.print()` under automation: the file chooser is the control
/// `page.file-chooser`, answered with paths (the page's form uploads the files and the server receives their
/// bytes; a folder for `<input webkitdirectory>`); the print request is `page.print`, answered with a PDF file
/// that holds the page's text.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct FilesAndPrintingTests {
    static func control(_ event: JSON) -> JSON { event["control"] ?? [:] }

    /// Clicks the middle of the page titled `title` as a user would (the page's input or button fills it).
    static func click(_ host: HostProcess, _ title: String) async throws {
        try await host.xInput(["mousemove", "--window", "WINDOW", "300", "300", "click", "1"], toWindowTitled: title)
    }

    static func command(_ fields: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test func aFileInputIsAnsweredWithPathsAndTheFormUploadsTheirBytes() async throws {
        let log = try TemporaryDirectory.make("log")
        let server = try await LocalHTTPServer.running(
            script: Repository.path("Tests/EndToEndTests/Fixtures/recording-server.py"), arguments: [log])
        defer { server.stop() }
        let folder = try TemporaryDirectory.make("files")
        let notes = folder + "/notes.txt", more = folder + "/more.txt"
        try "Notes for the server\n".write(toFile: notes, atomically: true, encoding: .utf8)
        try Data([0, 1, 2, 254, 255]).write(to: URL(fileURLWithPath: more))

        let host = try HostProcess(page: server.url + "upload?accept=text/plain,.txt", arguments: [])
        try await host.waitFor(.pageFinished)
        try await Self.click(host, "upload")
        let chooser = Self.control(
            try await host.waitFor(.controlAdded) { Self.control($0)["id"] == "page.file-chooser" })
        #expect(chooser["kind"] == "file-chooser" && chooser["multiple"] == false)
        #expect(chooser["directories"] == false)
        // WebKitGTK passes the accept attribute's MIME types on (not its extensions, such as .txt).
        #expect(chooser["accept"] == ["text/plain"], "\(chooser)")

        // One file for a single input; two are refused and the chooser stays.
        try host.sendLine(
            try Self.command(["command": "choose-files", "control": "page.file-chooser", "paths": [notes, more]]))
        let refused = try await host.waitFor(.commandError) { $0["command"] == "choose-files" }
        #expect(refused["error"]?.stringValue?.contains("takes one file") == true, "\(refused)")
        try host.sendLine(
            try Self.command(["command": "choose-files", "control": "page.file-chooser", "paths": [notes]]))
        try await host.waitFor(.commandOK) { $0["command"] == "choose-files" }
        try await host.waitFor(.controlRemoved) { $0["id"] == "page.file-chooser" }
        try await host.waitFor(.pageTitle) { $0["title"] == "uploaded 1" }
        #expect(
            FileManager.default.contents(atPath: log + "/uploads/1-notes.txt") == Data("Notes for the server\n".utf8))

        // `multiple`: both files; a chooser dismissed sends nothing. (Events are looked for after `mark`.)
        var mark = host.events.count
        try host.send(["command": "navigate", "url": server.url + "upload?multiple"])
        try await host.waitFor(.pageFinished, after: mark) { $0["url"]?.stringValue == server.url + "upload?multiple" }
        mark = host.events.count
        try await Self.click(host, "upload")
        let several = Self.control(
            try await host.waitFor(.controlAdded, after: mark) {
                Self.control($0)["id"] == "page.file-chooser"
            })
        #expect(several["multiple"] == true && several["accept"] == [], "\(several)")
        mark = host.events.count
        try host.send(["command": "dismiss", "control": "page.file-chooser"])
        try await host.waitFor(.controlRemoved, after: mark) { $0["id"] == "page.file-chooser" }
        mark = host.events.count
        try await Self.click(host, "upload")
        try await host.waitFor(.controlAdded, after: mark) {
            Self.control($0)["id"] == "page.file-chooser"
        }
        try host.sendLine(
            try Self.command(["command": "choose-files", "control": "page.file-chooser", "paths": [notes, more]]))
        try await host.waitFor(.pageTitle, after: mark) { $0["title"] == "uploaded 2" }
        #expect(FileManager.default.contents(atPath: log + "/uploads/2-more.txt") == Data([0, 1, 2, 254, 255]))
        let posts = ((try? String(contentsOfFile: log + "/requests.log", encoding: .utf8)) ?? "")
            .split(separator: "\n").filter { $0.hasPrefix("POST /upload") }
        #expect(posts.count == 2, "the dismissed chooser sent nothing")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func aDirectoryInputIsAnsweredWithAFolderAndUploadsTheFilesInIt() async throws {
        let log = try TemporaryDirectory.make("log")
        let server = try await LocalHTTPServer.running(
            script: Repository.path("Tests/EndToEndTests/Fixtures/recording-server.py"), arguments: [log])
        defer { server.stop() }
        let folder = try TemporaryDirectory.make("photos") + "/trip"
        try FileManager.default.createDirectory(atPath: folder + "/day2", withIntermediateDirectories: true)
        try "one\n".write(toFile: folder + "/a.txt", atomically: true, encoding: .utf8)
        try "two\n".write(toFile: folder + "/day2/b.txt", atomically: true, encoding: .utf8)

        let host = try HostProcess(page: server.url + "upload?webkitdirectory", arguments: [])
        try await host.waitFor(.pageFinished)
        try await Self.click(host, "upload")
        let chooser = Self.control(
            try await host.waitFor(.controlAdded) { Self.control($0)["id"] == "page.file-chooser" })
        #expect(chooser["directories"] == true, "\(chooser)")
        try host.sendLine(
            try Self.command(["command": "choose-files", "control": "page.file-chooser", "paths": [folder]]))
        try await host.waitFor(.pageTitle) { $0["title"]?.stringValue?.hasPrefix("uploaded") == true }
        let uploads = try FileManager.default.contentsOfDirectory(atPath: log + "/uploads").sorted()
        #expect(uploads == ["1-a.txt", "2-b.txt"], "\(uploads)")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func windowPrintIsPrintedToAPDFHoldingThePagesText() async throws {
        let log = try TemporaryDirectory.make("log")
        let server = try await LocalHTTPServer.running(
            script: Repository.path("Tests/EndToEndTests/Fixtures/recording-server.py"), arguments: [log])
        defer { server.stop() }
        let pdf = try TemporaryDirectory.make("print") + "/page.pdf"
        let host = try HostProcess(page: server.url + "print", arguments: [])
        try await host.waitFor(.pageFinished)
        try await Self.click(host, "print")
        let request = Self.control(
            try await host.waitFor(.controlAdded) { Self.control($0)["id"] == "page.print" })
        #expect(request["kind"] == "print" && request["url"]?.stringValue == server.url + "print")
        try host.send(["command": "print", "control": "page.print", "path": pdf])
        try await host.waitFor(.commandOK) { $0["command"] == "print" }
        let finished = try await host.waitFor(.printFinished)
        #expect(finished["path"]?.stringValue == pdf)
        let text = try await ProcessRunner.run("/usr/bin/pdftotext", [pdf, "-"])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("Strada prints this page"), "\(text.stdout)")
        #expect(text.stdout.contains("Printed through the GTK print operation."))
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}
