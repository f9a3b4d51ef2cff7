package import StradaCore

/// A native search entry revealed under the header bar; the query goes to the page as it is typed.
///
/// Web → native: `connect {placeholder?}`, `disconnect`. Native → web: repeated replies to `connect`
/// with `{query}` as the text changes.
package final class SearchComponent: BridgeComponent {
    package nonisolated override class var name: String { "search" }

    package override func onReceive(message: Message) {
        guard let event = Event(rawValue: message.event) else { return }
        switch event {
        case .connect: handleConnect(message: message)
        case .disconnect: controls?.removeSearch(id: Self.searchID)
        }
    }

    // MARK: Private

    private static let searchID = "search"

    private enum Event: String {
        case connect, disconnect
    }

    private func handleConnect(message: Message) {
        let data: MessageData? = message.data()
        controls?.setSearch(ControlSearch(id: Self.searchID, placeholder: data?.placeholder ?? "Search")) {
            [weak self] text in
            self?.reply(to: Event.connect.rawValue, with: QueryData(query: text))
        }
    }
}

// MARK: Message data

extension SearchComponent {
    struct MessageData: Decodable {
        let placeholder: String?
    }

    struct QueryData: Encodable {
        let query: String
    }
}
