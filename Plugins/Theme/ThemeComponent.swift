package import StradaCore

/// The application's colour scheme, as the page asks: light, dark, or the desktop's (`null`).
///
/// Web → native: `connect {theme: "light"|"dark"|null}`. No reply. The scheme returns to the desktop's
/// when the page goes away.
package final class ThemeComponent: BridgeComponent {
    package nonisolated override class var name: String { "theme" }

    package override func onReceive(message: Message) {
        guard let event = Event(rawValue: message.event) else { return }
        switch event {
        case .connect: handleConnect(message: message)
        }
    }

    /// The component is gone (its page, or its plugin while the page stays): the desktop's scheme again,
    /// as `page` gives the window title back.
    package override func onDestroy() {
        controls?.setColorScheme(.system)
    }

    // MARK: Private

    private enum Event: String {
        case connect
    }

    private func handleConnect(message: Message) {
        let data: MessageData? = message.data()
        let scheme = data?.theme.flatMap(ColorScheme.init(rawValue:)) ?? .system
        controls?.setColorScheme(scheme)
    }
}

// MARK: Message data

extension ThemeComponent {
    struct MessageData: Decodable {
        let theme: String?
    }
}
