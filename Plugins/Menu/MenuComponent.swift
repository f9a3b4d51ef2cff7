package import StradaCore

/// Shows a native popover menu; the chosen item's index goes back to the page.
///
/// Web → native: `display {title, items: [{title, index}], source?: {x, y, width, height}}`.
/// Native → web: `reply(to: "display", {selectedIndex})`; a dismissed menu sends nothing.
package final class MenuComponent: BridgeComponent {
    package nonisolated override class var name: String { "menu" }

    package override func onReceive(message: Message) {
        guard let event = Event(rawValue: message.event) else { return }
        switch event {
        case .display: handleDisplay(message: message)
        }
    }

    // MARK: Private

    private enum Event: String {
        case display
    }

    private func handleDisplay(message: Message) {
        guard let data: MessageData = message.data() else { return }
        let menu = ControlMenu(
            id: "menu", title: data.title ?? "",
            items: data.items.enumerated().map { .init(title: $1.title, index: $1.index ?? $0) },
            anchor: data.source.map { ControlAnchor(x: $0.x, y: $0.y, width: $0.width ?? 1, height: $0.height ?? 1) })
        controls?.presentMenu(menu) { [weak self] index in
            guard let index else { return }  // dismissed: no reply
            self?.reply(to: Event.display.rawValue, with: SelectionData(selectedIndex: index))
        }
    }
}

// MARK: Message data

extension MenuComponent {
    struct MessageData: Decodable {
        let title: String?
        let items: [Item]
        let source: Source?
    }

    struct Item: Decodable {
        let title: String
        let index: Int?
    }

    struct Source: Decodable {
        let x: Double
        let y: Double
        let width: Double?
        let height: Double?
    }

    struct SelectionData: Encodable {
        let selectedIndex: Int
    }
}
