import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// A plugin author with only the packaged host, unpacked into a scratch root (no checkout): `plugin new` in
/// Swift, C and Rust from a folder of their own, each project built and its own test run as its README
/// says, then each plugin loaded in that host, replying to the page and hearing its Greet button pressed.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct PackagedTemplateTests {
    /// One skeleton: its language, the component name given to `plugin new`, the library it builds.
    struct Project {
        let language: String
        let component: String
        let folder: String
        let library: String
    }

    @Test func pluginNewFromThePackagedHostWritesSwiftCAndRustPluginsThatBuildPassAndRunInIt() async throws {
        let (_, root) = try await PackageTests.unpacked()
        let host = root + "/usr/bin/strada-host"
        let home = try PackagedRecipeTests.freshHome()
        let work = try TemporaryDirectory.make("author")
        var languages = ["c", "swift"]
        if ExampleBuild.isOnPath("cargo") {
            languages.append("rust")
        } else {
            print("PackagedTemplateTests: cargo is not on PATH, so the Rust skeleton is not built (install Rust)")
        }

        var projects: [Project] = []
        for language in languages {
            let component = "greeter-\(language)"
            // As an author types it: in their own folder, no --sdk, no --output.
            let output = try await ProcessRunner.check(
                "sh", ["-c", #"cd "$0" && exec "$@""#, work, host, "plugin", "new", component, "--lang", language],
                environment: home)
            #expect(output.contains("next: cd \(component) && "), "\(output)")
            let folder = (work as NSString).appendingPathComponent(component)
            try expectBuildsAgainstThePackage(language: language, folder: folder, root: root)
            let library = try await buildAndTest(language: language, folder: folder, component: component)
            projects.append(Project(language: language, component: component, folder: folder, library: library))
        }

        for project in projects {
            try await expectRepliesAndHearsItsButton(project, host: host, environment: home)
        }
        try await expectACopiedHostWithoutAnSDKToSayWhatToPass(root: root)
    }

    /// A host copied where no SDK is (neither its prefix's nor a checkout above it) says so in one line, and
    /// `--sdk` with the package's prefix works from there. (Part of the test above: packaging takes ~50 s.)
    private func expectACopiedHostWithoutAnSDKToSayWhatToPass(root: String) async throws {
        let bin = try TemporaryDirectory.make("copied") + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let prefix = (bin as NSString).deletingLastPathComponent
        for file in ["usr/bin/strada-host", "usr/bin/strada-plugin-worker"] {
            try FileManager.default.copyItem(
                atPath: root + "/" + file, toPath: bin + "/" + (file as NSString).lastPathComponent)
        }
        try FileManager.default.copyItem(atPath: root + "/usr/lib", toPath: prefix + "/lib")  // its Swift runtime
        let work = try TemporaryDirectory.make("author")

        let lost = try await ProcessRunner.run(bin + "/strada-host", ["plugin", "new", "x", "--output", work + "/x"])
        #expect(lost.status == 64)
        #expect(
            lost.stderr.hasPrefix(
                "Error: cannot find the plugin SDK: this host is neither installed with it (<prefix>/include/strada) "
                    + "nor built in a checkout; pass --sdk <checkout or prefix>\n"), "\(lost.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work + "/x"))

        let found = try await ProcessRunner.run(
            bin + "/strada-host",
            ["plugin", "new", "x", "--lang", "c", "--output", work + "/x", "--sdk", root + "/usr"])
        #expect(found.succeeded, "\(found.stderr)")
        let makefile = try String(contentsOfFile: work + "/x/Makefile", encoding: .utf8)
        #expect(makefile.contains("STRADA_INCLUDE ?= \(root)/usr/include/strada\n"))

        let wrong = try await ProcessRunner.run(bin + "/strada-host", ["plugin", "new", "y", "--sdk", work])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("--sdk \(work): neither a Strada for Linux checkout"), "\(wrong.stderr)")
    }

    /// What the project names of the SDK is the package's, never this checkout.
    private func expectBuildsAgainstThePackage(language: String, folder: String, root: String) throws {
        func text(_ file: String) throws -> String { try String(contentsOfFile: folder + "/" + file, encoding: .utf8) }
        #expect(try text("index.html").contains(#"src="\#(root)/usr/share/strada/web/strada.js""#))
        switch language {
        case "c": #expect(try text("Makefile").contains("STRADA_INCLUDE ?= \(root)/usr/include/strada\n"))
        case "swift": #expect(try text("Package.swift").contains(#"path: "\#(root)/usr/share/strada/swift-sdk""#))
        default: break
        }
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder)
        for file in files where !file.hasPrefix(".") {
            let text = (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)) ?? ""
            #expect(!text.contains(Repository.root.path), "\(file) names the checkout")
        }
    }

    /// Builds the project and runs its own test as its README says; returns the built plugin's path.
    private func buildAndTest(language: String, folder: String, component: String) async throws -> String {
        let snake = component.replacingOccurrences(of: "-", with: "_")
        switch language {
        case "c":
            let output = try await ProcessRunner.check("make", ["-C", folder, "test"])
            #expect(output.contains("ok: \(component) replied"), "\(output)")
            return folder + "/lib\(snake).so"
        case "rust":
            try await ProcessRunner.check(
                "cargo", ["build", "--offline", "--manifest-path", folder + "/Cargo.toml"], timeout: 300)
            let output = try await ProcessRunner.check(
                "cargo", ["test", "--offline", "--manifest-path", folder + "/Cargo.toml"], timeout: 300)
            #expect(output.contains("test result: ok. 4 passed"), "\(output)")
            return folder + "/target/debug/lib\(snake).so"
        default:
            // The slow one (the SDK's modules are compiled from source): built once, tested on that build.
            let scratch = folder + "/.build"
            let environment = try SwiftBuild.environment()
            try await ProcessRunner.check(
                "swift", ["build", "--package-path", folder, "--scratch-path", scratch], environment: environment,
                timeout: 900)
            let output = try await ProcessRunner.check(
                "swift", ["test", "--package-path", folder, "--scratch-path", scratch], environment: environment,
                timeout: 900)
            #expect(output.contains("showsAGreetButtonWhosePressesReplyToTheConnect() passed"), "\(output)")
            #expect(!output.contains("failed"), "\(output)")
            return scratch + "/debug/libGreeterSwiftPlugin.so"
        }
    }

    /// The plugin in the packaged host, on its own page: connect is answered, its Greet button appears, and a
    /// press reaches the plugin, which replies to that connect again.
    private func expectRepliesAndHearsItsButton(
        _ project: Project, host: String, environment: [String: String]
    ) async throws {
        let plugins = try ExampleBuild.pluginsDirectory(with: project.library)
        let run = try HostProcess(
            page: project.folder + "/index.html", arguments: ["--plugins", plugins, "--no-system-plugins"],
            environment: environment, executable: host)
        let ready = try await run.waitFor(.hostReady)
        #expect(ready["plugins"]?.arrayValue?.first?["id"]?.stringValue == "com.example.\(project.component)")

        let connect = try await run.waitFor(.bridgeReceived) { $0["message"]?["event"] == "connect" }
        let connectID = try #require(connect["message"]?["id"]?.stringValue, "the connect has an id")
        let greeted = try await run.waitFor(.bridgeSent) { $0["message"]?["data"]?["presses"]?.intValue == 0 }
        #expect(greeted["message"]?["id"]?.stringValue == connectID, "\(project.language)")
        #expect(greeted["message"]?["data"]?["greeting"] == "Hello, Ada!", "\(project.language)")
        let added = try await run.waitFor(.controlAdded)
        #expect(added["control"]?["id"]?.stringValue == "\(project.component).greet", "\(project.language)")
        #expect(added["control"]?["title"] == "Greet")
        try await run.waitFor(.pageFinished)

        try run.send(["command": "activate", "control": "\(project.component).greet"])
        let pressed = try await run.waitFor(.bridgeSent) { $0["message"]?["data"]?["presses"]?.intValue == 1 }
        #expect(pressed["message"]?["id"]?.stringValue == connectID, "\(project.language)")
        #expect(pressed["message"]?["event"] == "connect")
        try await run.waitFor(.pageTitle) { $0["title"]?.stringValue == "Hello, Ada! (pressed 1×)" }
        #expect(run.events(named: .commandError).isEmpty, "\(project.language)")

        try run.send(["command": "quit"])
        #expect(try await run.waitForExit() == 0)
    }
}
