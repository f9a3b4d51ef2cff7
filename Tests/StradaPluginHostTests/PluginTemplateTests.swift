import Foundation
import StradaPluginHost
import TestSupport
import Testing

/// `strada-host plugin new`: each template, generated into a fresh folder, builds and passes its own test.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct PluginTemplateTests {
    /// The Strada for Linux checkout the generated projects depend on.
    static let sdkPath = Repository.root.path

    @Test func theCTemplateBuildsWithMakeAndPassesItsOwnTest() async throws {
        let project = try generate(name: "share-sheet", language: .c)
        try await ProcessRunner.check("make", ["-C", project])
        #expect(
            FileManager.default.fileExists(atPath: (project as NSString).appendingPathComponent("libshare_sheet.so")))
        let output = try await ProcessRunner.check("make", ["-C", project, "test"])
        #expect(
            output.contains(
                #"ok: share-sheet replied "#
                    + #"{"id":"1","component":"share-sheet","event":"connect","data":{"greeting":"Hello, Ada "#
                    + #"\"Countess\"!"}}"#
            ))
    }

    @Test func theSwiftTemplateBuildsADynamicLibraryAndPassesItsOwnTest() async throws {
        let project = try generate(name: "share-sheet", language: .swift)
        let scratch = (project as NSString).appendingPathComponent(".scratch")
        let environment = try SwiftBuild.environment()
        try await ProcessRunner.check(
            "swift", ["build", "--package-path", project, "--scratch-path", scratch], environment: environment,
            timeout: 900)
        #expect(
            FileManager.default.fileExists(
                atPath: (scratch as NSString).appendingPathComponent("debug/libShareSheetPlugin.so")))
        let output = try await ProcessRunner.check(
            "swift", ["test", "--package-path", project, "--scratch-path", scratch], environment: environment,
            timeout: 900)
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
        let project = try TemporaryDirectory.make("template-\(language.rawValue)")
        for file in PluginTemplates.files(name: name, language: language, sdkPath: Self.sdkPath) {
            let path = (project as NSString).appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try file.contents.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return project
    }
}
