import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// The third-party examples in `Examples/`, each built from outside the package exactly as its README
/// says (`make`, `build.sh`, `swift build --package-path`), copied into a fresh plugins directory and
/// driven in the real host through the automation channel.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct ThirdPartyPluginTests {
    @Test func aPluginWrittenInCBuiltWithMakeCountsPressesOfItsHeaderButton() async throws {
        let output = try TemporaryDirectory.make("c-plugin")
        try await ProcessRunner.check("make", ["-C", Repository.path("Examples/c-plugin"), "BUILD_DIR=\(output)"])
        try await expectCounter(
            plugin: (output as NSString).appendingPathComponent("libcounter_c.so"),
            page: Repository.path("Examples/c-plugin/index.html"),
            component: "counter", pluginID: "dev.example.counter-c")
    }

    @Test(
        .enabled(if: ExampleBuild.isOnPath("rustc"), "rustc is not on PATH: install Rust to build Examples/rust-plugin")
    )
    func aPluginWrittenInRustBuiltWithPlainRustcCountsPressesOfItsHeaderButton() async throws {
        let output = try TemporaryDirectory.make("rust-plugin")
        try await ProcessRunner.check("sh", [Repository.path("Examples/rust-plugin/build.sh"), output])
        try await expectCounter(
            plugin: (output as NSString).appendingPathComponent("libcounter_rs.so"),
            page: Repository.path("Examples/rust-plugin/index.html"),
            component: "counter-rs", pluginID: "dev.example.counter-rs")
    }

    @Test func aPluginWrittenInSwiftAsItsOwnPackageGreetsTheNameThePageSends() async throws {
        let scratch = try TemporaryDirectory.make("swift-plugin")  // hundreds of MB, removed when the test ends
        try await ProcessRunner.check(
            "swift", ["build", "--package-path", Repository.path("Examples/swift-plugin"), "--scratch-path", scratch],
            environment: SwiftBuild.environment(), timeout: 900)
        let plugin = (scratch as NSString).appendingPathComponent("debug/libGreetingPlugin.so")
        let host = try HostProcess(
            page: Repository.path("Examples/swift-plugin/index.html"),
            arguments: ["--plugins", try ExampleBuild.pluginsDirectory(with: plugin)])

        let ready = try await host.waitFor(.hostReady)
        #expect(ready["components"] == ["greeting"])
        #expect(ready["plugins"]?.arrayValue?.first?["id"] == "dev.example.greeting")

        let connect = try await host.waitFor(.bridgeReceived) { $0["message"]?["event"] == "connect" }
        #expect(connect["message"]?["data"]?["name"] == "Ada")
        let reply = try await host.waitFor(.bridgeSent)
        let connectID = try #require(connect["message"]?["id"]?.stringValue, "the connect has an id")
        #expect(reply["message"]?["id"]?.stringValue == connectID)
        #expect(reply["message"]?["data"]?["greeting"] == "Hello, Ada!")
        try await host.waitFor(.pageTitle) { $0["title"] == "Hello, Ada!" }

        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    /// The counter examples (C and Rust) behave the same: connect shows `<component>.count`; every press
    /// replies to that connect with the next count, which the page puts in its title.
    private func expectCounter(plugin: String, page: String, component: String, pluginID: String) async throws {
        let host = try HostProcess(
            page: page, arguments: ["--plugins", try ExampleBuild.pluginsDirectory(with: plugin)])

        let ready = try await host.waitFor(.hostReady)
        #expect(ready["components"] == [.string(component)])
        #expect(ready["plugins"]?.arrayValue?.first?["id"]?.stringValue == pluginID)

        let connect = try await host.waitFor(.bridgeReceived) { $0["message"]?["event"] == "connect" }
        let added = try await host.waitFor(.controlAdded)
        let control = try #require(added["control"]?.objectValue)
        #expect(control["id"]?.stringValue == "\(component).count")
        #expect(control["title"] == "Count")
        #expect(control["enabled"] == true)
        try await host.waitFor(.pageFinished)

        for count in 1...2 {
            try host.send(["command": "activate", "control": "\(component).count"])
            let reply = try await host.waitFor(.bridgeSent) {
                $0["message"]?["data"]?["count"]?.intValue == count
            }
            let connectID = try #require(connect["message"]?["id"]?.stringValue, "the connect has an id")
            #expect(reply["message"]?["id"]?.stringValue == connectID)
            #expect(reply["message"]?["event"] == "connect")
            try await host.waitFor(.pageTitle) { $0["title"]?.stringValue == "count \(count)" }
        }
        #expect(host.events(named: .commandError).isEmpty)

        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}

/// The examples are built as a third party would: their own build commands (`ProcessRunner`).
enum ExampleBuild {
    /// Whether `tool` is an executable on PATH.
    static func isOnPath(_ tool: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }

    /// A fresh plugins directory holding a copy of `plugin`.
    static func pluginsDirectory(with plugin: String) throws -> String {
        let directory = try PluginsDirectory.make(plugins: [])
        try FileManager.default.copyItem(
            atPath: plugin,
            toPath: (directory as NSString).appendingPathComponent((plugin as NSString).lastPathComponent))
        return directory
    }
}
