package import StradaCore

/// A modal confirmation dialog (destructive styling on request).
///
/// Web → native: `show {title, description?, destructive?, confirm?, dismiss?}` (also `message` for
/// `description`, `confirmTitle` / `dismissTitle`). Native → web: an empty reply to `show` when
/// confirmed; nothing when dismissed.
package final class AlertComponent: BridgeComponent {
    package nonisolated override class var name: String { "alert" }

    package override func onReceive(message: Message) {
        guard let event = Event(rawValue: message.event) else { return }
        switch event {
        case .show: handleShow(message: message)
        }
    }

    // MARK: Private

    private enum Event: String {
        case show
    }

    private func handleShow(message: Message) {
        guard let data: MessageData = message.data() else { return }
        let alert = ControlAlert(
            id: "alert", title: data.title, message: data.description ?? data.message,
            confirmTitle: data.confirm ?? data.confirmTitle ?? "OK",
            dismissTitle: data.dismiss ?? data.dismissTitle ?? "Cancel",
            isDestructive: data.destructive ?? false)
        controls?.presentAlert(alert) { [weak self] confirmed in
            guard confirmed else { return }
            _ = self?.reply(to: Event.show.rawValue, with: "{}")
        }
    }
}

// MARK: Message data

extension AlertComponent {
    struct MessageData: Decodable {
        let title: String
        let description: String?
        let message: String?
        let destructive: Bool?
        let confirm: String?
        let confirmTitle: String?
        let dismiss: String?
        let dismissTitle: String?
    }
}
