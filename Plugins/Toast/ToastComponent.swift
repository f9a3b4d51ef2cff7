package import StradaCore

/// A transient message over the page.
///
/// Web → native: `show {message}`. No reply.
package final class ToastComponent: BridgeComponent {
    package nonisolated override class var name: String { "toast" }

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
        controls?.showToast(data.message)
    }
}

// MARK: Message data

extension ToastComponent {
    struct MessageData: Decodable {
        let message: String
    }
}
