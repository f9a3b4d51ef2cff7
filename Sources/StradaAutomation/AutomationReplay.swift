import StradaCore

/// What a client connecting late to the automation socket missed of the host's start-up, kept so the socket
/// can greet it: `host.startup`, `host.ready`, every `plugin.error` and every `path-configuration.loaded` /
/// `.error` / `.warning`, each as it happened, and only the latest `host.components`, `turbo.ready` and
/// `webdriver.started` (each a state that the next one replaces). The order is the order they were written
/// in. Every other event is part of the live stream only: the screens shown are state the socket asks the
/// session for when a client connects (``AutomationSocket/currentState``), not history kept here.
package struct AutomationReplay: Sendable {
    /// The events kept, in the order they were written.
    package private(set) var events: [AutomationEvent] = []

    package init() {}

    /// How an event is kept, if at all.
    enum Keeping {
        /// Every occurrence, in order (they happen once, or once per source, at start-up).
        case every
        /// Only the latest: a new one replaces the earlier one, at the new one's place in the order.
        case latest
        /// Not kept: live stream only.
        case none
    }

    static func keeping(_ name: AutomationEvent.Name) -> Keeping {
        switch name {
        case .hostStartup, .hostReady, .pluginError, .pathConfigurationLoaded, .pathConfigurationError,
            .pathConfigurationWarning:
            .every
        case .hostComponents, .turboReady, .webDriverStarted: .latest
        default: .none
        }
    }

    /// Keeps `event` if a late client needs it.
    package mutating func record(_ event: AutomationEvent) {
        switch Self.keeping(event.name) {
        case .every:
            events.append(event)
        case .latest:
            events.removeAll { $0.name == event.name }
            events.append(event)
        case .none:
            break
        }
    }
}

extension AutomationEvent {
    /// The event as a line of a client's greeting: as ``line``, with `"replayed": true` — it was written before
    /// the client connected, or it describes the state the client connected in (the screens shown).
    package var replayedLine: String {
        var object = fields
        object["event"] = .string(name.rawValue)
        object["replayed"] = .bool(true)
        return JSON.object(object).serialized(sortedKeys: true)
    }
}
