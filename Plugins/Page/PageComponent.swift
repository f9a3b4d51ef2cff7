package import StradaCore

/// The window title and subtitle for the page.
///
/// Web → native: `connect {title, subtitle?}`, `change {title, subtitle?}`. Native → web: replies to
/// `connect` with the title shown, `{title, subtitle}`, each time it changes.
package final class PageComponent: BridgeComponent {
    package nonisolated override class var name: String { "page" }

    package override func onReceive(message: Message) {
        guard let event = Event(rawValue: message.event) else { return }
        switch event {
        case .connect, .change: handleTitle(message: message)
        }
    }

    package override func onDestroy() {
        controls?.setWindowTitle(nil)
    }

    // MARK: Private

    private enum Event: String {
        case connect, change
    }

    private func handleTitle(message: Message) {
        guard let data: MessageData = message.data() else { return }
        controls?.setWindowTitle(data.title, subtitle: data.subtitle)
        reply(to: Event.connect.rawValue, with: data)
    }
}

// MARK: Message data

extension PageComponent {
    struct MessageData: Codable {
        let title: String
        let subtitle: String?
    }
}
