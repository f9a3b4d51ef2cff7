package import StradaCore

/// Puts a "more" button in the header bar; pressing it asks the page to open its overflow menu.
///
/// Web → native: `connect {label}`, `disconnect`. Native → web: `reply(to: "connect")` on press.
package final class OverflowMenuComponent: BridgeComponent {
    package nonisolated override class var name: String { "overflow-menu" }

    package override func onReceive(message: Message) {
        guard let event = Event(rawValue: message.event) else { return }
        switch event {
        case .connect: handleConnect(message: message)
        case .disconnect: controls?.removeButton(id: Self.buttonID)
        }
    }

    // MARK: Private

    private static let buttonID = "more"

    private enum Event: String {
        case connect, disconnect
    }

    private func handleConnect(message: Message) {
        let data: MessageData? = message.data()
        let button = HeaderButton(
            id: Self.buttonID, title: data?.label ?? "More", iconName: "view-more-symbolic", placement: .end)
        controls?.setButton(button) { [weak self] in self?.reply(to: Event.connect.rawValue) }
    }
}

// MARK: Message data

extension OverflowMenuComponent {
    struct MessageData: Decodable {
        let label: String?
    }
}
