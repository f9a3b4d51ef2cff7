import Foundation
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

        let ready = try await host.waitFor("host.ready")
        #expect(ready["components"] as? [String] == ["greeting"])
        #expect((ready["plugins"] as? [[String: Any]])?.first?["id"] as? String == "dev.example.greeting")

        let connect = try await host.waitFor("bridge.received") { $0.bridgeMessage?["event"] as? String == "connect" }
        #expect(connect.bridgeMessage?.messageData?["name"] as? String == "Ada")
        let reply = try await host.waitFor("bridge.sent")
        #expect(reply.bridgeMessage?["id"] as? String == connect.bridgeMessage?["id"] as? String)
        #expect(reply.bridgeMessage?.messageData?["greeting"] as? String == "Hello, Ada!")
        try await host.waitFor("page.title") { $0["title"] as? String == "Hello, Ada!" }

        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    /// The counter examples (C and Rust) behave the same: connect shows `<component>.count`; every press
    /// replies to that connect with the next count, which the page puts in its title.
    private func expectCounter(plugin: String, page: String, component: String, pluginID: String) async throws {
        let host = try HostProcess(
            page: page, arguments: ["--plugins", try ExampleBuild.pluginsDirectory(with: plugin)])

        let ready = try await host.waitFor("host.ready")
        #expect(ready["components"] as? [String] == [component])
        #expect((ready["plugins"] as? [[String: Any]])?.first?["id"] as? String == pluginID)

        let connect = try await host.waitFor("bridge.received") { $0.bridgeMessage?["event"] as? String == "connect" }
        let added = try await host.waitFor("control.added")
        let control = try #require(added["control"] as? [String: Any])
        #expect(control["id"] as? String == "\(component).count")
        #expect(control["title"] as? String == "Count")
        #expect(control["enabled"] as? Bool == true)
        try await host.waitFor("page.finished")

        for count in 1...2 {
            try host.send(["command": "activate", "control": "\(component).count"])
            let reply = try await host.waitFor("bridge.sent") {
                $0.bridgeMessage?.messageData?["count"] as? Int == count
            }
            #expect(reply.bridgeMessage?["id"] as? String == connect.bridgeMessage?["id"] as? String)
            #expect(reply.bridgeMessage?["event"] as? String == "connect")
            try await host.waitFor("page.title") { $0["title"] as? String == "count \(count)" }
        }
        #expect(host.events.filter { $0["event"] as? String == "command.error" }.isEmpty)

        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}

extension Dictionary where Key == String, Value == Any {
    /// `message` of a bridge event.
    fileprivate var bridgeMessage: [String: Any]? { self["message"] as? [String: Any] }
    /// `data` of a message.
    fileprivate var messageData: [String: Any]? { self["data"] as? [String: Any] }
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
