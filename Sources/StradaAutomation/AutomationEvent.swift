package import StradaCore

/// Everything the host reports on the automation channel: one case per event, encoded in one place
/// (``json``). The event table in docs/automation.md is checked against ``Name`` by a test.
package enum AutomationEvent: Sendable, Equatable {
    // MARK: The host
    /// Plugins are loaded and the window is about to show the start page.
    case hostReady(userAgent: String, components: [String], plugins: [JSON])
    /// The set of component names changed (hot reload): new user agent, page reloaded.
    case hostComponents(components: [String], userAgent: String)
    /// The host is exiting with `code`.
    case hostExit(code: Int32, reason: String)
    /// The window's first frame is on screen: when each start-up phase ended, in milliseconds since `main`
    /// started (`phases`); `mainClock` is that moment on the monotonic clock (`CLOCK_MONOTONIC`, in ms), and
    /// `beforeMain` the time from the process's start to `main` (loading libraries; the kernel dates the
    /// start in 10 ms steps).
    case hostStartup(phases: [String: Double], mainClock: Double, beforeMain: Double)

    // MARK: Commands
    /// A command succeeded; `details` carries what it acted on and its result.
    case commandOK(command: String, details: JSONObject = [:])
    /// A command failed (or could not be read: then `command` is `nil` and `details` holds the input).
    case commandError(command: String?, error: String, details: JSONObject = [:])
    /// The answer to `controls`: the native controls of the screen shown.
    case controls([JSON])

    // MARK: Plugins
    case pluginError(path: String, reason: String, message: String)
    case pluginCrashed(path: String, id: String, reason: String)
    case pluginRestarted(path: String, id: String)
    case pluginDisabled(path: String, id: String)
    case pluginReloadFailed(path: String, error: String)
    case pluginRemoved(path: String, components: [String])
    case pluginAdded(path: String, id: String, components: [String])
    case pluginReloaded(
        path: String, id: String, generation: Int, components: [String], reinstantiated: [String],
        milliseconds: Double, residentKilobytesDelta: Int)

    // MARK: The bridge
    case bridgeReady
    case bridgeReceived(message: JSON)
    case bridgeSent(message: JSON)
    case bridgeRejected(raw: String, reason: String)
    case bridgeDropped(message: JSON, reason: String)
    case bridgeRegistered(components: [String])
    case bridgeUnregistered(component: String)

    // MARK: Native controls
    case controlAdded(JSON)
    case controlChanged(JSON)
    case controlRemoved(id: String)
    case toast(message: String)
    case windowTitle(title: String, subtitle: String?)
    case clipboard(text: String)
    case windowColorScheme(scheme: String)
    case browserOpened(url: String)
    /// A URL of another scheme (`mailto:`, `tel:`, …) was handed to the system (reported, not launched,
    /// under automation).
    case systemOpened(url: String)
    /// A print request answered with a file was printed to it (`path`, a PDF), or failed (`error`).
    case printFinished(path: String)
    case printFailed(path: String, error: String)

    // MARK: The page
    case pageCommitted(url: String, bridged: Bool)
    case pageFinished(url: String, title: String)
    case pageTitle(String)
    case pageClosed
    case windowClosed
    case pageCrashed(reason: String)

    // MARK: Screens and visits
    /// A screen was pushed on, replaced in or popped off a stack (`stack`: "main" or "modal").
    case screenPushed(ScreenReport)
    case screenReplaced(ScreenReport)
    case screenPopped(ScreenReport)
    /// The page's Turbo proposed a visit (or a full page load started one).
    case visitProposed(url: String, action: String, properties: JSONObject = [:])
    /// The page's Turbo finished a visit: its page is rendered on the screen shown (reported after a repaint).
    case visitCompleted(url: String, title: String)
    /// A visit failed: HTTP status (0 for a network error) and what the host did.
    case visitFailed(url: String, statusCode: Int, error: String)
    /// A path configuration document was applied (`rules`: its own rules), or refused (`error`; the rules in
    /// force are kept).
    case pathConfigurationLoaded(source: String, rules: Int)
    case pathConfigurationError(source: String, error: String)
    /// A document applied with things that do nothing here, once per document: each `warnings` item has
    /// `kind` (`other-platform`, `unknown`, `trailing-comma`), `key`, `rules`, `platforms`, `line`/`column`
    /// (for a comma) and `reason`.
    case pathConfigurationWarning(source: String, warnings: [JSON])
    /// A modal was presented over the main window for `url` (its first screen), or dismissed (`reason`:
    /// "cancel", "command", a visit of the main stack, a presentation, …).
    case modalPresented(url: String, width: Int, height: Int)
    case modalDismissed(reason: String)
    /// An app with tabs shows tab `index` (from 0): its `title`, the `url` of its top screen (its start URL when
    /// `firstTime`: the tab's stack is made and its start URL loaded now).
    case tabSelected(index: Int, title: String, url: String, firstTime: Bool)
    /// The window painted its first frame with tab `index` shown, `milliseconds` after it was selected (a
    /// first selection's frame shows its web view before its page has loaded: its `page.finished` says when).
    case tabShown(index: Int, milliseconds: Double)
    /// A download ended: the file in the Downloads folder, or why it failed (`error`).
    case downloadFinished(path: String)
    case downloadFailed(path: String, error: String)
    /// A page's permission request was answered (`allowed`), by the user or by a remembered answer
    /// (`remembered`).
    case permissionAnswered(origin: String, kind: String, allowed: Bool, remembered: Bool)
    /// The page showed a web notification.
    case notification(title: String, body: String)
    /// The error screen is shown for a failed visit (`statusCode` 0: no response at all).
    case screenError(url: String, statusCode: Int, title: String, message: String)
    /// The page's Turbo registered our adapter: from now on its visits are proposed to the navigator.
    case turboReady(url: String, version: String)

    // MARK: WebDriver
    /// A WebDriver session started (`run --webdriver`): the driver now drives the window's web view.
    case webDriverStarted(session: String)

    // MARK: Benchmarks
    case benchmarkRoundtrip(result: JSON)

    /// Every event name, as it appears on the wire.
    package enum Name: String, CaseIterable, Sendable {
        case hostReady = "host.ready", hostComponents = "host.components", hostExit = "host.exit"
        case hostStartup = "host.startup"
        case commandOK = "command.ok", commandError = "command.error", controls
        case pluginError = "plugin.error", pluginCrashed = "plugin.crashed", pluginRestarted = "plugin.restarted"
        case pluginDisabled = "plugin.disabled", pluginReloadFailed = "plugin.reload-failed"
        case pluginRemoved = "plugin.removed", pluginAdded = "plugin.added", pluginReloaded = "plugin.reloaded"
        case bridgeReady = "bridge.ready", bridgeReceived = "bridge.received", bridgeSent = "bridge.sent"
        case bridgeRejected = "bridge.rejected", bridgeDropped = "bridge.dropped"
        case bridgeRegistered = "bridge.registered", bridgeUnregistered = "bridge.unregistered"
        case controlAdded = "control.added", controlChanged = "control.changed", controlRemoved = "control.removed"
        case toast, windowTitle = "window.title", clipboard, windowColorScheme = "window.colorScheme"
        case browserOpened = "browser.opened", systemOpened = "system.opened"
        case printFinished = "print.finished", printFailed = "print.failed"
        case pageCommitted = "page.committed", pageFinished = "page.finished", pageTitle = "page.title"
        case pageClosed = "page.closed", windowClosed = "window.closed", pageCrashed = "page.crashed"
        case screenPushed = "screen.pushed", screenReplaced = "screen.replaced", screenPopped = "screen.popped"
        case visitProposed = "visit.proposed", visitFailed = "visit.failed", turboReady = "turbo.ready"
        case visitCompleted = "visit.completed"
        case screenError = "screen.error"
        case modalPresented = "modal.presented", modalDismissed = "modal.dismissed"
        case tabSelected = "tab.selected", tabShown = "tab.shown"
        case downloadFinished = "download.finished", downloadFailed = "download.failed"
        case permissionAnswered = "permission.answered", notification
        case pathConfigurationLoaded = "path-configuration.loaded", pathConfigurationError = "path-configuration.error"
        case pathConfigurationWarning = "path-configuration.warning"
        case benchmarkRoundtrip = "benchmark.roundtrip"
        case webDriverStarted = "webdriver.started"

        /// Events written whatever the channel's filter: the host's own, command results and `controls`.
        package var isAlwaysReported: Bool {
            rawValue.hasPrefix("host.") || rawValue.hasPrefix("command.") || self == .controls
        }
    }

    package var name: Name {
        switch self {
        case .hostReady: .hostReady
        case .hostComponents: .hostComponents
        case .hostExit: .hostExit
        case .hostStartup: .hostStartup
        case .commandOK: .commandOK
        case .commandError: .commandError
        case .controls: .controls
        case .pluginError: .pluginError
        case .pluginCrashed: .pluginCrashed
        case .pluginRestarted: .pluginRestarted
        case .pluginDisabled: .pluginDisabled
        case .pluginReloadFailed: .pluginReloadFailed
        case .pluginRemoved: .pluginRemoved
        case .pluginAdded: .pluginAdded
        case .pluginReloaded: .pluginReloaded
        case .bridgeReady: .bridgeReady
        case .bridgeReceived: .bridgeReceived
        case .bridgeSent: .bridgeSent
        case .bridgeRejected: .bridgeRejected
        case .bridgeDropped: .bridgeDropped
        case .bridgeRegistered: .bridgeRegistered
        case .bridgeUnregistered: .bridgeUnregistered
        case .controlAdded: .controlAdded
        case .controlChanged: .controlChanged
        case .controlRemoved: .controlRemoved
        case .toast: .toast
        case .windowTitle: .windowTitle
        case .clipboard: .clipboard
        case .windowColorScheme: .windowColorScheme
        case .browserOpened: .browserOpened
        case .systemOpened: .systemOpened
        case .printFinished: .printFinished
        case .printFailed: .printFailed
        case .pageCommitted: .pageCommitted
        case .pageFinished: .pageFinished
        case .pageTitle: .pageTitle
        case .pageClosed: .pageClosed
        case .windowClosed: .windowClosed
        case .pageCrashed: .pageCrashed
        case .screenPushed: .screenPushed
        case .screenReplaced: .screenReplaced
        case .screenPopped: .screenPopped
        case .visitProposed: .visitProposed
        case .visitCompleted: .visitCompleted
        case .visitFailed: .visitFailed
        case .screenError: .screenError
        case .modalPresented: .modalPresented
        case .downloadFinished: .downloadFinished
        case .downloadFailed: .downloadFailed
        case .permissionAnswered: .permissionAnswered
        case .notification: .notification
        case .modalDismissed: .modalDismissed
        case .tabSelected: .tabSelected
        case .tabShown: .tabShown
        case .pathConfigurationLoaded: .pathConfigurationLoaded
        case .pathConfigurationError: .pathConfigurationError
        case .pathConfigurationWarning: .pathConfigurationWarning
        case .turboReady: .turboReady
        case .benchmarkRoundtrip: .benchmarkRoundtrip
        case .webDriverStarted: .webDriverStarted
        }
    }

    /// The event's fields (without `"event"`).
    package var fields: JSONObject {
        switch self {
        case .hostReady(let userAgent, let components, let plugins):
            ["userAgent": .string(userAgent), "components": .strings(components), "plugins": .array(plugins)]
        case .hostComponents(let components, let userAgent):
            ["components": .strings(components), "userAgent": .string(userAgent)]
        case .hostExit(let code, let reason): ["code": .number(Double(code)), "reason": .string(reason)]
        case .hostStartup(let phases, let mainClock, let beforeMain):
            [
                "phases": .object(JSONObject(phases.mapValues { .number(($0 * 10).rounded() / 10) })),
                "mainClock": .number((mainClock * 10).rounded() / 10), "beforeMain": .number(beforeMain.rounded()),
            ]
        case .commandOK(let command, let details): details.merging(["command": .string(command)])
        case .commandError(let command, let error, let details):
            details.merging(["error": .string(error)]).merging(command.map { ["command": .string($0)] } ?? [:])
        case .controls(let controls): ["controls": .array(controls)]
        case .pluginError(let path, let reason, let message):
            ["path": .string(path), "reason": .string(reason), "message": .string(message)]
        case .pluginCrashed(let path, let id, let reason):
            ["path": .string(path), "id": .string(id), "reason": .string(reason)]
        case .pluginRestarted(let path, let id), .pluginDisabled(let path, let id):
            ["path": .string(path), "id": .string(id)]
        case .pluginReloadFailed(let path, let error): ["path": .string(path), "error": .string(error)]
        case .pluginRemoved(let path, let components): ["path": .string(path), "components": .strings(components)]
        case .pluginAdded(let path, let id, let components):
            ["path": .string(path), "id": .string(id), "components": .strings(components)]
        case .pluginReloaded(let path, let id, let generation, let components, let reinstantiated, let ms, let delta):
            [
                "path": .string(path), "id": .string(id), "generation": .number(Double(generation)),
                "components": .strings(components), "reinstantiated": .strings(reinstantiated),
                "milliseconds": .number(ms), "residentKilobytesDelta": .number(Double(delta)),
            ]
        case .bridgeReady, .pageClosed, .windowClosed: [:]
        case .bridgeReceived(let message), .bridgeSent(let message): ["message": message]
        case .bridgeRejected(let raw, let reason): ["raw": .string(raw), "reason": .string(reason)]
        case .bridgeDropped(let message, let reason): ["message": message, "reason": .string(reason)]
        case .bridgeRegistered(let components): ["components": .strings(components)]
        case .bridgeUnregistered(let component): ["component": .string(component)]
        case .controlAdded(let control), .controlChanged(let control): ["control": control]
        case .controlRemoved(let id): ["id": .string(id)]
        case .toast(let message): ["message": .string(message)]
        case .windowTitle(let title, let subtitle):
            ["title": .string(title), "subtitle": subtitle.map(JSON.string) ?? .null]
        case .clipboard(let text): ["text": .string(text)]
        case .windowColorScheme(let scheme): ["scheme": .string(scheme)]
        case .browserOpened(let url), .systemOpened(let url): ["url": .string(url)]
        case .pageCommitted(let url, let bridged): ["url": .string(url), "bridged": .bool(bridged)]
        case .pageFinished(let url, let title): ["url": .string(url), "title": .string(title)]
        case .pageTitle(let title): ["title": .string(title)]
        case .pageCrashed(let reason): ["reason": .string(reason)]
        case .screenPushed(let screen), .screenReplaced(let screen), .screenPopped(let screen): screen.fields
        case .visitProposed(let url, let action, let properties):
            ["url": .string(url), "action": .string(action), "properties": .object(properties)]
        case .visitCompleted(let url, let title): ["url": .string(url), "title": .string(title)]
        case .visitFailed(let url, let statusCode, let error):
            ["url": .string(url), "statusCode": .number(Double(statusCode)), "error": .string(error)]
        case .screenError(let url, let statusCode, let title, let message):
            [
                "url": .string(url), "statusCode": .number(Double(statusCode)), "title": .string(title),
                "message": .string(message),
            ]
        case .pathConfigurationLoaded(let source, let rules):
            ["source": .string(source), "rules": .number(Double(rules))]
        case .pathConfigurationError(let source, let error): ["source": .string(source), "error": .string(error)]
        case .pathConfigurationWarning(let source, let warnings):
            ["source": .string(source), "warnings": .array(warnings)]
        case .modalPresented(let url, let width, let height):
            ["url": .string(url), "width": .number(Double(width)), "height": .number(Double(height))]
        case .modalDismissed(let reason): ["reason": .string(reason)]
        case .tabSelected(let index, let title, let url, let firstTime):
            [
                "index": .number(Double(index)), "title": .string(title), "url": .string(url),
                "firstTime": .bool(firstTime),
            ]
        case .tabShown(let index, let milliseconds):
            ["index": .number(Double(index)), "milliseconds": .number(milliseconds)]
        case .downloadFinished(let path), .printFinished(let path): ["path": .string(path)]
        case .printFailed(let path, let error): ["path": .string(path), "error": .string(error)]
        case .downloadFailed(let path, let error): ["path": .string(path), "error": .string(error)]
        case .permissionAnswered(let origin, let kind, let allowed, let remembered):
            [
                "origin": .string(origin), "kind": .string(kind), "allowed": .bool(allowed),
                "remembered": .bool(remembered),
            ]
        case .notification(let title, let body): ["title": .string(title), "body": .string(body)]
        case .turboReady(let url, let version): ["url": .string(url), "version": .string(version)]
        case .benchmarkRoundtrip(let result): ["result": result]
        case .webDriverStarted(let session): ["session": .string(session)]
        }
    }

    /// The event as one JSON object: `{"event": name, ...fields}`.
    package var json: JSON {
        var object = fields
        object["event"] = .string(name.rawValue)
        return .object(object)
    }

    /// The event as one line of the channel (sorted keys, no newline).
    package var line: String { json.serialized(sortedKeys: true) }
}

/// A screen as the screen events report it.
package struct ScreenReport: Sendable, Equatable {
    package var url: String
    package var title: String
    /// How many screens the stack holds after the change.
    package var depth: Int
    /// The visit action that caused the change ("advance", "replace", "restore", "back", "load", …).
    package var action: String
    /// "main" or "modal".
    package var stack: String
    /// The native screen shown instead of a web page (the path configuration's `view_controller`), if any.
    package var view: String?

    package init(
        url: String, title: String, depth: Int, action: String, stack: String = "main", view: String? = nil
    ) {
        self.url = url
        self.title = title
        self.depth = depth
        self.action = action
        self.stack = stack
        self.view = view
    }

    var fields: JSONObject {
        var fields: JSONObject = [
            "url": .string(url), "title": .string(title), "depth": .number(Double(depth)), "action": .string(action),
            "stack": .string(stack),
        ]
        if let view { fields["view"] = .string(view) }
        return fields
    }
}

extension JSON {
    static func strings(_ values: [String]) -> JSON { .array(values.map(JSON.string)) }
}

extension JSONObject {
    func merging(_ other: JSONObject) -> JSONObject {
        var result = self
        for (key, value) in other { result[key] = value }
        return result
    }
}

extension AutomationEvent {
    /// The event for bridge traffic.
    package init(_ traffic: BridgeTraffic) {
        switch traffic {
        case .ready: self = .bridgeReady
        case .received(let message): self = .bridgeReceived(message: Self.json(message))
        case .sent(let message): self = .bridgeSent(message: Self.json(message))
        case .rejected(let raw, let reason): self = .bridgeRejected(raw: raw, reason: reason)
        case .dropped(let message, let reason): self = .bridgeDropped(message: Self.json(message), reason: reason)
        case .registered(let names): self = .bridgeRegistered(components: names)
        case .unregistered(let name): self = .bridgeUnregistered(component: name)
        }
    }

    /// The event name bridge traffic maps to (checked before anything is encoded on the message path).
    package static func name(of traffic: BridgeTraffic) -> Name {
        switch traffic {
        case .ready: .bridgeReady
        case .received: .bridgeReceived
        case .sent: .bridgeSent
        case .rejected: .bridgeRejected
        case .dropped: .bridgeDropped
        case .registered: .bridgeRegistered
        case .unregistered: .bridgeUnregistered
        }
    }

    /// A message as the wire object the page sent or receives.
    static func json(_ message: Message) -> JSON {
        message.wire()
            ?? .object([
                "id": .string(message.id), "component": .string(message.component), "event": .string(message.event),
                "jsonData": .string(message.jsonData),
            ])
    }
}
