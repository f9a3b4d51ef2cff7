import StradaAutomation
import StradaCore
import StradaEngineGTK

extension AutomationEvent {
    /// The event for a change to the native controls.
    init(_ change: ControlChange) {
        switch change {
        case .added(let control): self = .controlAdded(control.json)
        case .changed(let control): self = .controlChanged(control.json)
        case .removed(let id): self = .controlRemoved(id: id)
        case .toast(let message): self = .toast(message: message)
        case .windowTitle(let title, let subtitle): self = .windowTitle(title: title, subtitle: subtitle)
        case .clipboard(let text): self = .clipboard(text: text)
        case .colorScheme(let scheme): self = .windowColorScheme(scheme: scheme.rawValue)
        case .openedInBrowser(let url): self = .browserOpened(url: url)
        case .openedWithSystem(let url): self = .systemOpened(url: url)
        case .printed(let path, nil): self = .printFinished(path: path)
        case .printed(let path, let error?): self = .printFailed(path: path, error: error)
        }
    }

    /// The event for something that happened to the page; `nil` for what the navigator reports itself.
    init?(_ event: PageEvent) {
        switch event {
        case .committed(let url, let bridged): self = .pageCommitted(url: url, bridged: bridged)
        case .finished(let url, let title): self = .pageFinished(url: url, title: title)
        case .titleChanged(let title): self = .pageTitle(title)
        case .closeRequestedByPage: self = .pageClosed
        case .windowClosed: self = .windowClosed
        case .webProcessTerminated(let reason): self = .pageCrashed(reason: reason)
        case .notification(let title, let body): self = .notification(title: title, body: body)
        case .locationChanged, .turbo, .backRequested, .loadFailed, .httpError, .retryRequested, .refreshRequested,
            .dismissRequested, .permissionRequested, .quitRequested:
            return nil
        }
    }
}

/// `--trace` lines: one per bridge message in and out.
enum Trace {
    static func line(for traffic: BridgeTraffic) -> String {
        let line: String
        switch traffic {
        case .ready: line = "← ready"
        case .received(let message):
            line = "← \(message.component)/\(message.event) #\(message.id) \(message.jsonData)"
        case .sent(let message): line = "→ \(message.component)/\(message.event) #\(message.id) \(message.jsonData)"
        case .rejected(let raw, let reason): line = "✗ rejected (\(reason)): \(raw)"
        case .dropped(let message, let reason):
            line = "✗ dropped \(message.component)/\(message.event) #\(message.id): \(reason)"
        case .registered(let names): line = "→ register [\(names.joined(separator: " "))]"
        case .unregistered(let name): line = "→ unregister \(name)"
        }
        return "[trace] \(line)"
    }
}
