import Foundation
import StradaPluginHost
import TestSupport
import Testing

/// `strada-host plugin new`: each template, generated under another name into a fresh folder, builds and
/// passes its own test — against this checkout (the packaged host's SDK: `PackagedTemplateTests`).
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct PluginTemplateTests {
    /// The SDK the generated projects build against: this checkout's.
    static let sdk = PluginSDK.checkout(Repository.root.path)

    @Test func theCTemplateBuildsWithMakeAndPassesItsOwnTest() async throws {
        let project = try generate(name: "share-sheet", language: .c)
        try await ProcessRunner.check("make", ["-C", project])
        #expect(
            FileManager.default.fileExists(atPath: (project as NSString).appendingPathComponent("libshare_sheet.so")))
        let output = try await ProcessRunner.check("make", ["-C", project, "test"])
        let greeting = #"{"greeting":"Hello, Ada \"Countess\"!","presses":"#
        #expect(
            output.contains(
                #"ok: share-sheet replied {"id":"1","component":"share-sheet","event":"connect","data":"#
                    + greeting + #"0}}; its greet button, pressed twice, replied to connect "# + greeting + "2}"),
            "\(output)")
    }

    @Test(
        .enabled(
            if: PluginTemplateTests.isOnPath("cargo"), "cargo is not on PATH: install Rust to test the Rust template"))
    func theRustTemplateBuildsWithCargoAndPassesItsOwnTest() async throws {
        let project = try generate(name: "share-sheet", language: .rust)
        let target = ["CARGO_TARGET_DIR": (project as NSString).appendingPathComponent("target")]
        try await ProcessRunner.check(
            "cargo", ["build", "--offline", "--manifest-path", project + "/Cargo.toml"], environment: target,
            timeout: 300)
        #expect(
            FileManager.default.fileExists(
                atPath: (project as NSString).appendingPathComponent("target/debug/libshare_sheet.so")))
        let result = try await ProcessRunner.run(
            "cargo", ["test", "--offline", "--manifest-path", project + "/Cargo.toml"], environment: target,
            streams: .merged, timeout: 300)
        #expect(result.succeeded, "\(result.stdout)")
        for test in [
            "describes_one_component", "replies_to_connect_shows_a_button_and_replies_again_on_each_press",
            "logs_a_malformed_message_and_goes_on", "reads_and_writes_json",
        ] {
            #expect(result.stdout.contains("test \(test) ... ok"), "\(result.stdout)")
        }
        #expect(!result.stdout.contains("warning:"), "\(result.stdout)")
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
        for test in [
            "repliesToConnectWithAGreeting", "showsAGreetButtonWhosePressesReplyToTheConnect",
            "removesTheButtonOnDisconnect",
        ] {
            #expect(output.contains("\(test)() passed"), "\(output)")
        }
    }

    @Test func everyTemplateNamesItsComponentAsGivenAndItsIdentifiersSafely() {
        let sdk = PluginSDK.checkout("/opt/strada")
        for language in PluginTemplates.Language.allCases {
            let files = PluginTemplates.files(name: "Share Sheet!", language: language, sdk: sdk)
            #expect(Set(files.map(\.path)).count == files.count, "\(language): duplicate paths")
            #expect(files.contains { $0.contents.contains(#""share-sheet""#) }, "\(language): component name")
            #expect(files.allSatisfy { !$0.path.hasPrefix("/") && !$0.path.contains("..") })
        }
        let quoted = PluginSDK.checkout(#"/opt/my "strada""#)
        let swift = PluginTemplates.files(name: "share-sheet", language: .swift, sdk: quoted)
        #expect(swift.first { $0.path == "Package.swift" }?.contents.contains(#"path: "/opt/my \"strada\"""#) == true)
        #expect(swift.contains { $0.path == "Sources/ShareSheetPlugin/ShareSheetComponent.swift" })
        let c = PluginTemplates.files(name: "2fa", language: .c, sdk: sdk)
        #expect(c.contains { $0.path == "c_2fa.c" })
        let rust = PluginTemplates.files(name: "2fa", language: .rust, sdk: sdk)
        #expect(rust.first { $0.path == "Cargo.toml" }?.contents.contains(#"name = "c_2fa""#) == true)
        #expect(rust.first { $0.path == "src/lib.rs" }?.contents.contains(#"c"2fa""#) == true)
    }

    /// Whether `tool` is an executable on PATH.
    static func isOnPath(_ tool: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }

    private func generate(name: String, language: PluginTemplates.Language) throws -> String {
        let project = try TemporaryDirectory.make("template-\(language.rawValue)")
        for file in PluginTemplates.files(name: name, language: language, sdk: Self.sdk) {
            let path = (project as NSString).appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try file.contents.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return project
    }
}
