// strada-bench: engine-free benchmarks, printed as one JSON object.
//   strada-bench <plugin.so for the ABI crossing> <plugin.so to copy for load timing> [messages]
// Core dispatch: parse + validate + route + component + reply encoding, per message, with an in-memory
// web view. ABI crossing: the same through a plugin loaded with dlopen, and a bare call of the plugin's
// receive function. Plugin load: loading 1 and 50 plugins (distinct copies, so 50 real dlopens).
// STRADA_BENCH_ONLY=load STRADA_BENCH_LOAD_COUNTS=1,10,… : only the plugin load, for each count in turn.
// STRADA_BENCH_ONLY=core / plugin: only the dispatch in process / through the plugin (for callgrind).
import Foundation
import Logging
import StradaCore
import StradaPluginHost
import StradaTesting

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

@MainActor
final class InProcessEcho: BridgeComponent {
    nonisolated override class var name: String { "echo" }
    override func onReceive(message: Message) { reply(with: message) }
}

/// Plugin loading: for each count, that many distinct copies of `file` in a fresh folder, loaded (real dlopens).
@MainActor
func pluginLoads(_ loader: PluginLoader, copying file: String, counts: [Int]) -> JSONObject {
    let folder = NSTemporaryDirectory() + "strada-bench-load-\(getpid())"
    try? FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var loads: JSONObject = [:]
    for count in counts {
        let batch = folder + "/\(count)"
        try? FileManager.default.createDirectory(
            atPath: batch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        for index in 0..<count {
            try? FileManager.default.copyItem(atPath: file, toPath: batch + "/plugin\(index).so")
        }
        let start = now()
        let report = loader.load(directories: [batch])
        let milliseconds = Double(now() - start) / 1e6
        loads["\(count)"] = ["milliseconds": .number(milliseconds), "loaded": .number(Double(report.plugins.count))]
    }
    return loads
}

@MainActor
func dispatchNanoseconds(registrations: [ComponentRegistration], messages: Int) -> Double {
    let webView = InMemoryWebView(url: "https://app.test/")
    let destination = TestDestination()
    let bridge = Bridge(webView: webView, limits: BridgeLimits(maxMessagesPerSecond: .max))
    let delegate = BridgeDelegate(location: "https://app.test/", destination: destination, components: registrations)
    delegate.webViewDidBecomeActive(bridge)
    let payload = { (id: Int) in
        #"{"id":"\#(id)","component":"echo","event":"ping""#
            + #","data":{"text":"hello","n":1,"metadata":{"url":"https://app.test/"}}}"#
    }
    for id in 0..<1_000 { bridge.receive(json: payload(id)) }  // warm up
    webView.clear()
    let inputs = (0..<messages).map(payload)
    let start = now()
    for (index, input) in inputs.enumerated() {
        bridge.receive(json: input)
        if index % 1_000 == 999 { webView.clear() }
    }
    let elapsed = Double(now() - start) / Double(messages)
    withExtendedLifetime(delegate) {}
    return elapsed
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(
        Data("usage: strada-bench <echo plugin .so> <plugin .so to copy for load timing> [messages]\n".utf8))
    exit(2)
}
let messages = arguments.count > 3 ? Int(arguments[3]) ?? 200_000 : 200_000
let result: JSON = MainActor.assumeIsolated {
    let logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
    Strada.config.logger = logger
    let loader = PluginLoader(logger: logger)
    if ProcessInfo.processInfo.environment["STRADA_BENCH_ONLY"] == "load" {
        let counts = (ProcessInfo.processInfo.environment["STRADA_BENCH_LOAD_COUNTS"] ?? "1")
            .split(separator: ",").compactMap { Int($0) }
        return ["plugin_load_ms": .object(pluginLoads(loader, copying: arguments[2], counts: counts))]
    }
    let only = ProcessInfo.processInfo.environment["STRADA_BENCH_ONLY"]
    if only == "plugin" {
        guard case .success(let echo) = loader.load(file: arguments[1]) else {
            fatalError("cannot load \(arguments[1])")
        }
        let nanoseconds = dispatchNanoseconds(registrations: echo.registrations, messages: messages)
        return ["through_plugin_us": .number(nanoseconds / 1000)]
    }
    let inProcess = dispatchNanoseconds(registrations: [ComponentRegistration(InProcessEcho.self)], messages: messages)
    if only == "core" {
        return ["core_dispatch_us": .number(inProcess / 1000)]
    }

    guard case .success(let echo) = loader.load(file: arguments[1]) else { fatalError("cannot load \(arguments[1])") }
    let throughPlugin = dispatchNanoseconds(registrations: echo.registrations, messages: messages)

    let loads = pluginLoads(loader, copying: arguments[2], counts: [1, 50])

    return [
        "messages": .number(Double(messages)),
        "core_dispatch_us": .number(inProcess / 1000),
        "through_plugin_us": .number(throughPlugin / 1000),
        "abi_crossing_us": .number((throughPlugin - inProcess) / 1000),
        "plugin_load_ms": .object(loads),
    ]
}
print(result.serialized(sortedKeys: true))
