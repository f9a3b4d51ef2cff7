public import ArgumentParser
import Foundation
import Logging
import StradaCore
import StradaEngineGTK
import StradaPluginHost
import CWebKitGTK

/// `strada-host run <url or file> --plugins <dir>`: opens the window.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open a page in the host window with the plugins' components available to it.")

    @Argument(help: "The page to open: an http(s)/file URL, or a path to an HTML file.")
    var page: String

    @Option(name: .customLong("plugins"), help: "A plugins directory (repeatable). Default: ~/.local/share/strada/plugins if it exists.")
    var pluginDirectories: [String] = []

    @Flag(help: "Machine-readable automation channel: JSON-line events on stdout, JSON-line commands on stdin.")
    var automation = false

    @Option(help: "With --automation: only report events whose name starts with one of these comma-separated prefixes (e.g. \"page,control\").")
    var automationEvents: String?

    @Flag(help: .hidden)
    var benchmarkEchoChannel = false

    @Option(name: .customLong("allow-origin"), help: "Also give the bridge to pages from this origin (repeatable). Default: only the origin of <page>.")
    var allowedOrigins: [String] = []

    @Flag(help: "Hot reload: watch the plugins directories and swap in rebuilt plugins without restarting.")
    var watch = false

    @Flag(help: "Run each plugin in its own worker process: a plugin that crashes, hangs or leaks is reported and restarted; the host keeps running.")
    var isolate = false

    @Flag(help: "Print every bridge message in and out (stderr).")
    var trace = false

    @Flag(help: "Log why each ignored or dropped message was not delivered.")
    var debug = false

    @Option(help: "Codec key strategy for message data in every component: useDefaultKeys or snakeCase.")
    var keys: CodecSettings.KeyStrategy = .useDefaultKeys

    @Option(help: "Text placed before the product token in the user agent, e.g. \"MyApp/2.1\".")
    var userAgentPrefix: String?

    @Option(help: "Window title.")
    var title = "Strada"

    func validate() throws {
        _ = try pageURL()
        if isolate && watch {
            throw ValidationError("--isolate and --watch cannot be combined yet; use --watch while developing a plugin, --isolate to run untrusted ones")
        }
        for origin in allowedOrigins where OriginPolicy.origin(of: origin) == nil {
            throw ValidationError("--allow-origin \(origin): not an origin; write it like https://app.example or http://127.0.0.1:8080")
        }
        for directory in pluginDirectories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--plugins \(directory): no such directory; create it or pass the folder holding the plugin .so files")
            }
        }
    }

    /// The page argument as a URL: kept when it has a scheme, otherwise an existing file made absolute.
    func pageURL() throws -> String {
        if page.contains("://") || page.hasPrefix("about:") || page.hasPrefix("data:") { return page }
        let absolute = URL(fileURLWithPath: page).standardizedFileURL
        guard FileManager.default.fileExists(atPath: absolute.path) else {
            throw ValidationError("\(page): no such file; pass an http(s) URL or the path to an HTML file")
        }
        return absolute.absoluteString
    }

    func run() throws {
        let url = try pageURL()
        let exitCode = MainActor.assumeIsolated { () -> Int32 in
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = debug ? .debug : .info
                return handler
            }
            Strada.config.debugLoggingEnabled = debug
            Strada.config.codec = CodecSettings(keys: keys)
            // GTK's cairo renderer: no GL context per window. Under Xvfb (software GL) it starts faster and
            // uses less memory; set GSK_RENDERER yourself to choose another.
            setenv("GSK_RENDERER", "cairo", 0)
            guard gtk_init_check() != 0 else {
                FileHandle.standardError.write(Data("strada-host: cannot open a display; run under `xvfb-run -a` when there is none\n".utf8))
                return 2
            }
            let app = HostApp(
                url: url, originPolicy: OriginPolicy(allowed: [url] + allowedOrigins), pluginDirectories: pluginDirectories.isEmpty ? HostApp.defaultPluginDirectories() : pluginDirectories,
                automation: automation ? (automationEvents?.split(separator: ",").map(String.init) ?? [""]) : nil,
                benchmarkEchoChannel: benchmarkEchoChannel, watch: watch, isolate: isolate, trace: trace, userAgentPrefix: userAgentPrefix, title: title)
            return app.run()
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}

extension CodecSettings.KeyStrategy: ExpressibleByArgument {}
