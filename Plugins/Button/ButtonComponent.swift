package import StradaCore

/// A header-bar button at the start or end, with a title or a freedesktop icon.
///
/// Web → native: `connect {title, image?, side?: "left"|"right"}` (also the events `left` / `right` with
/// `{title, image?}`), `disconnect {side?}` (that side's button; without a side, every button of the page).
/// Native → web: an empty reply to the event that made the button, on press.
package final class ButtonComponent: BridgeComponent {
    package nonisolated override class var name: String { "button" }

    package override func onReceive(message: Message) {
        guard let event = Event(rawValue: message.event) else { return }
        switch event {
        case .connect: show(message: message, side: nil)
        case .left: show(message: message, side: .left)
        case .right: show(message: message, side: .right)
        case .disconnect: remove(side: message.data().flatMap { (data: MessageData) in data.side })
        }
    }

    // MARK: Private

    private enum Event: String {
        case connect, left, right, disconnect
    }

    /// The message that made each button: a press answers that message, even when two buttons came from
    /// `connect` messages (the cached last `connect` would be the other button's).
    private var origins: [String: Message] = [:]

    private func show(message: Message, side explicitSide: Side?) {
        guard let data: MessageData = message.data() else { return }
        let side = explicitSide ?? data.side ?? .right
        let id = "button-\(side.rawValue)"
        let button = HeaderButton(
            id: id, title: data.title ?? "", iconName: data.image, placement: side == .left ? .start : .end)
        origins[id] = message
        controls?.setButton(button) { [weak self] in
            guard let self, let origin = self.origins[id] else { return }
            self.reply(with: origin.replacing(jsonData: "{}"))
        }
    }

    /// Removes the button of `side` (its web element went: a frame re-rendered, say) and keeps the other,
    /// so a page with a button on each side never loses the one that stayed; without a side, both.
    private func remove(side: Side?) {
        for id in origins.keys where side.map({ id == "button-\($0.rawValue)" }) ?? true {
            controls?.removeButton(id: id)
            origins[id] = nil
        }
    }
}

// MARK: Message data

extension ButtonComponent {
    enum Side: String, Decodable {
        case left, right
    }

    struct MessageData: Decodable {
        let title: String?
        let image: String?
        let side: Side?
    }
}
