public import ArgumentParser
import Foundation
import Logging
import StradaCore
import StradaHost
import StradaPluginHost

/// `strada-host run <url or file> --plugins <dir>`: opens the window.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open a page in the host window with the plugins' components available to it.")

    @Argument(
        help: ArgumentHelp(
            "The page to open: an http(s)/file URL, or a path to an HTML file (default: the app's start_url; "
                + "with --webdriver: a blank page, the driver navigates). With --app, also a deep link in one of "
                + "the app's url_schemes (myapp://posts/1 opens /posts/1 on the start_url's origin)."))
    var page: String?

    @Option(
        name: .customLong("app"),
        help: ArgumentHelp(
            "An app definition (JSON: id, name, start_url, plugins, path_configuration, …); flags override it.",
            valueName: "file"))
    var appFile: String?

    @Option(
        name: .customLong("plugins"),
        help: ArgumentHelp(
            "The app's plugins directory (repeatable; default: the app definition's plugins, else "
                + "~/.local/share/strada/plugins). The installed host's first-party plugins "
                + "(<prefix>/lib/strada/plugins for this <prefix>/bin/strada-host: /usr/lib/strada/plugins for "
                + "/usr/bin/strada-host) are searched after it; the earlier folder keeps a component name."))
    var pluginDirectories: [String] = []

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Whether the installed host's first-party plugins are searched after the app's (default: yes, or the "
                + "app definition's system_plugins)."))
    var systemPlugins: Bool?

    @Flag(help: "Machine-readable automation channel: JSON-line events on stdout, JSON-line commands on stdin.")
    var automation = false

    @Option(
        help: ArgumentHelp(
            "With --automation: only report events whose name starts with one of these comma-separated prefixes "
                + "(e.g. \"page,control\")."))
    var automationEvents: String?

    @Option(
        name: .customLong("automation-socket"),
        help: ArgumentHelp(
            "The automation channel (same JSON lines as --automation) on a Unix socket at this path.",
            valueName: "path"))
    var automationSocket: String?

    @Flag(
        help: ArgumentHelp(
            "Be driven by WebKitWebDriver: pass [\"run\", \"--webdriver\", …] as the webkitgtk:browserOptions args "
                + "(browserName \"strada-host\")."))
    var webdriver = false

    @Option(
        name: .customLong("log-file"),
        help: ArgumentHelp("Append the host's log (everything it writes on stderr) to this file.", valueName: "path"))
    var logFile: String?

    @Flag(help: .hidden)
    var benchmarkEchoChannel = false

    @Option(
        name: .customLong("allow-origin"),
        help: "Also give the bridge to pages from this origin (repeatable). Default: only the origin of <page>.")
    var allowedOrigins: [String] = []

    @Flag(help: "Hot reload: watch the plugins directories and swap in rebuilt plugins without restarting.")
    var watch = false

    @Flag(
        help: ArgumentHelp(
            "Run each plugin in its own worker process: a plugin that crashes, hangs or leaks is reported and "
                + "restarted; the host keeps running."))
    var isolate = false

    @Flag(
        help: ArgumentHelp(
            "Run each plugin's worker in a sandbox (bubblewrap: no network unless granted, the system read-only, "
                + "no home but its data folder, no other process visible). Implies --isolate."))
    var sandbox = false

    @Flag(help: "Print every bridge message in and out (stderr).")
    var trace = false

    @Flag(help: "Log why each ignored or dropped message was not delivered.")
    var debug = false

    @Flag(
        help: ArgumentHelp(
            "Developer mode: WebKit's inspector on F12 and Ctrl+Shift+I, and Inspect Element in the context menu "
                + "(as the app definition's \"developer\": true)."))
    var inspect = false

    @Option(help: "Codec key strategy for message data in every component: useDefaultKeys or snakeCase.")
    var keys: CodecSettings.KeyStrategy = .useDefaultKeys

    @Option(help: "Text placed before the product token in the user agent, e.g. \"MyApp/2.1\".")
    var userAgentPrefix: String?

    @Option(help: "Window title (default: the app's name, or \"Strada\").")
    var title: String?

    @Option(
        help: ArgumentHelp(
            "The app's id (reverse-DNS, e.g. com.example.MyApp): its cookies, storage and cache are kept under "
                + "$XDG_DATA_HOME/<id>/ and $XDG_CACHE_HOME/<id>/.", valueName: "id"))
    var appID: String?

    @Flag(help: "Keep no website data: cookies, storage and cache are thrown away at exit (kiosks, tests).")
    var ephemeral = false

    @Option(
        name: .customLong("path-configuration"),
        help: ArgumentHelp(
            "A Hotwire Native path configuration: a file, or the server's URL (repeatable; the last one loaded "
                + "wins). A server's copy is cached and used at the next start before the network answers."))
    var pathConfigurations: [String] = []

    func validate() throws {
        _ = try pageURL()
        if let appID, !AppDefinition.isValidID(appID) {
            throw ValidationError("--app-id \(appID): not a reverse-DNS id; write it like com.example.Notes")
        }
        for origin in allowedOrigins where OriginPolicy.origin(of: origin) == nil {
            throw ValidationError(
                "--allow-origin \(origin): not an origin; write it like https://app.example or http://127.0.0.1:8080")
        }
        for directory in pluginDirectories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw ValidationError(
                    "--plugins \(directory): no such directory; create it or pass the folder holding the plugin .so "
                        + "files"
                )
            }
        }
    }

    /// The app definition given with --app, read and checked.
    func appDefinition() throws -> AppDefinition? {
        guard let appFile else { return nil }
        do {
            return try AppDefinition(contentsOf: appFile)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The page argument as a URL: kept when it has a scheme, otherwise an existing file made absolute. Without
    /// one, the app definition's start_url, or a blank page under --webdriver (the driver navigates).
    func pageURL() throws -> String {
        guard let page else {
            if let app = try appDefinition() { return app.startURL }
            guard webdriver else {
                throw ValidationError("Missing expected argument '<page>' (or an app definition: --app FILE)")
            }
            return "about:blank"
        }
        if DeepLink.isDeepLink(page) {
            guard let app = try appDefinition() else {
                throw DeepLinkRefused(
                    description: "\(page): a link in an app's own scheme opens with the app's definition: "
                        + "strada-host run --app FILE \(page)")
            }
            do { return try DeepLink.page(for: page, schemes: app.urlSchemes, startURL: app.startURL) } catch {
                throw DeepLinkRefused(description: error.description)
            }
        }
        if page.contains("://") || page.hasPrefix("about:") || page.hasPrefix("data:") { return page }
        let absolute = URL(fileURLWithPath: page).standardizedFileURL
        guard FileManager.default.fileExists(atPath: absolute.path) else {
            throw ValidationError("\(page): no such file; pass an http(s) URL or the path to an HTML file")
        }
        return absolute.absoluteString
    }

    func run() throws {
        if let logFile {
            let fd = open(logFile, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw ValidationError("--log-file \(logFile): cannot write there; pass a path in a writable folder")
            }
            dup2(fd, 2)
            close(fd)
        }
        if webdriver, ProcessInfo.processInfo.environment["WEBKIT_INSPECTOR_SERVER"] == nil {
            FileHandle.standardError.write(
                Data(
                    ("strada-host: --webdriver without WEBKIT_INSPECTOR_SERVER: no driver can connect; let "
                        + "WebKitWebDriver start the host (webkitgtk:browserOptions)\n").utf8))
        }
        let app = try appDefinition()
        let origins = allowedOrigins.isEmpty ? (app?.allowedOrigins ?? []) : allowedOrigins
        let plugins = PluginDirectories.searched(
            given: pluginDirectories, app: app?.pluginDirectories ?? [],
            includeSystem: systemPlugins ?? app?.systemPlugins ?? true)
        // A tab's start URL is the app's as much as start_url is: its origin gets the bridge.
        let tabURLs = app?.tabs.map(\.startURL) ?? []
        var configuration = HostConfiguration(
            startURL: try pageURL(), originPolicy: OriginPolicy(allowed: [try pageURL()] + origins + tabURLs),
            pluginDirectories: plugins)
        configuration.automationEvents =
            automation ? (automationEvents?.split(separator: ",").map(String.init) ?? [""]) : nil
        configuration.automationSocket = automationSocket
        configuration.webDriver = webdriver
        configuration.benchmarkEchoChannel = benchmarkEchoChannel
        configuration.watch = watch
        configuration.isolate = isolate || sandbox
        configuration.sandbox = sandbox
        configuration.trace = trace
        configuration.userAgentPrefix = userAgentPrefix ?? app?.userAgentPrefix
        configuration.title = title ?? app?.name ?? "Strada"
        configuration.pathConfigurationSources =
            (pathConfigurations.isEmpty ? (app?.pathConfiguration ?? []) : pathConfigurations)
            .map(PathConfigurationSource.init)
        if let id = appID ?? app?.id { configuration.appID = id }
        configuration.ephemeral = ephemeral
        configuration.requestedURL = page == nil ? nil : try pageURL()
        configuration.windowSize = app?.windowSize
        configuration.colorScheme = app?.colorScheme
        configuration.grants = app?.grants ?? [:]
        configuration.requireSignedPlugins = app?.requireSignedPlugins == true
        configuration.developer = inspect || app?.developer == true
        configuration.menuItems = app?.menu ?? []
        configuration.about = app?.about
        configuration.windowClass = app?.startupWMClass
        configuration.tabs = app?.tabs ?? []
        let exitCode = try MainActor.assumeIsolated { () throws -> Int32 in
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = debug ? .debug : .info
                return handler
            }
            Strada.config.debugLoggingEnabled = debug
            Strada.config.codec = CodecSettings(keys: keys)
            let output = HostOutput(
                automation: { line in
                    print(line); fflush(nil)
                },
                trace: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) })
            do {
                if try HostSession.handOverToRunningApp(configuration, logger: Logger(label: "strada.host")) {
                    return 0
                }
                let session = try HostSession(
                    configuration: configuration, launcher: .stradaHost, output: output,
                    logger: Logger(label: "strada.host"))
                return session.run()
            } catch {
                FileHandle.standardError.write(Data("strada-host: \(error)\n".utf8))
                return 2
            }
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}

extension CodecSettings.KeyStrategy: ExpressibleByArgument {}

/// A deep link the app does not open: its one line, printed as is (no usage text after it).
struct DeepLinkRefused: Error, CustomStringConvertible {
    let description: String
}
