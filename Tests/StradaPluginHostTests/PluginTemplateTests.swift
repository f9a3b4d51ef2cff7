import Foundation
import Testing
import StradaPluginHost

/// `strada-host plugin new`: each template, generated into a fresh folder, builds and passes its own test.
@Suite(.serialized)
struct PluginTemplateTests {
    /// The Strada for Linux checkout the generated projects depend on.
    static let sdkPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func theCTemplateBuildsWithMakeAndPassesItsOwnTest() async throws {
        let project = try generate(name: "share-sheet", language: .c)
        defer { try? FileManager.default.removeItem(atPath: project) }
        try await TemplateCommand.run("make", ["-C", project])
        #expect(FileManager.default.fileExists(atPath: (project as NSString).appendingPathComponent("libshare_sheet.so")))
        let output = try await TemplateCommand.run("make", ["-C", project, "test"])
        #expect(output.contains(#"ok: share-sheet replied {"id":"1","component":"share-sheet","event":"connect","data":{"greeting":"Hello, Ada \"Countess\"!"}}"#))
    }

    @Test func theSwiftTemplateBuildsADynamicLibraryAndPassesItsOwnTest() async throws {
        let project = try generate(name: "share-sheet", language: .swift)
        defer { try? FileManager.default.removeItem(atPath: project) }
        let scratch = (project as NSString).appendingPathComponent(".scratch")
        try await TemplateCommand.run("swift", ["build", "--package-path", project, "--scratch-path", scratch], timeout: 900)
        #expect(FileManager.default.fileExists(atPath: (scratch as NSString).appendingPathComponent("debug/libShareSheetPlugin.so")))
        let output = try await TemplateCommand.run("swift", ["test", "--package-path", project, "--scratch-path", scratch], timeout: 900)
        #expect(output.contains("repliesToConnectWithAGreeting"))
        #expect(output.contains("repliesToConnectWithAGreeting() passed"))
    }

    @Test func everyTemplateNamesItsComponentAsGivenAndItsIdentifiersSafely() {
        for language in PluginTemplates.Language.allCases {
            let files = PluginTemplates.files(name: "Share Sheet!", language: language, sdkPath: "/opt/strada")
            #expect(Set(files.map(\.path)).count == files.count, "\(language): duplicate paths")
            #expect(files.contains { $0.contents.contains(#""share-sheet""#) }, "\(language): component name")
            #expect(files.allSatisfy { !$0.path.hasPrefix("/") && !$0.path.contains("..") })
        }
        let swift = PluginTemplates.files(name: "share-sheet", language: .swift, sdkPath: #"/opt/my "strada""#)
        #expect(swift.first { $0.path == "Package.swift" }?.contents.contains(#"path: "/opt/my \"strada\"""#) == true)
        #expect(swift.contains { $0.path == "Sources/ShareSheetPlugin/ShareSheetComponent.swift" })
        let c = PluginTemplates.files(name: "2fa", language: .c, sdkPath: "/opt/strada")
        #expect(c.contains { $0.path == "c_2fa.c" })
    }

    private func generate(name: String, language: PluginTemplates.Language) throws -> String {
        let project = (NSTemporaryDirectory() as NSString).appendingPathComponent("strada-template-\(language.rawValue)-\(UUID().uuidString)")
        for file in PluginTemplates.files(name: name, language: language, sdkPath: Self.sdkPath) {
            let path = (project as NSString).appendingPathComponent(file.path)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try file.contents.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return project
    }
}

/// Runs a build tool as a child process and returns its combined output; throws with that output on failure.
enum TemplateCommand {
    struct Failed: Error, CustomStringConvertible {
        let command: String
        let status: Int32
        let output: String
        var description: String { "`\(command)` exited with \(status):\n\(output)" }
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String], timeout: Double = 300) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let collected = Collected()
        pipe.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        pipe.fileHandleForReading.readabilityHandler = nil
        collected.append(pipe.fileHandleForReading.readDataToEndOfFile())
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw Failed(command: ([tool] + arguments).joined(separator: " "), status: process.terminationStatus, output: collected.text)
        }
        return collected.text
    }

    private final class Collected: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var data = Data()
        func append(_ more: Data) { lock.withLock { data.append(more) } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }
}
