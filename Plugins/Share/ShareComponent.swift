package import StradaCore

/// A share button: copies the page's link to the clipboard (with a toast) or opens it in the browser.
///
/// Web → native: `connect {url, title?}`, `disconnect`. No reply.
package final class ShareComponent: BridgeComponent {
    package nonisolated override class var name: String { "share" }

    package override func onReceive(message: Message) {
        guard let event = Event(rawValue: message.event) else { return }
        switch event {
        case .connect: handleConnect(message: message)
        case .disconnect: controls?.removeButton(id: Self.buttonID)
        }
    }

    // MARK: Private

    private static let buttonID = "share"

    private enum Event: String {
        case connect, disconnect
    }

    private enum Choice: Int {
        case copyLink, openInBrowser
    }

    private func handleConnect(message: Message) {
        guard let data: MessageData = message.data() else { return }
        let button = HeaderButton(
            id: Self.buttonID, title: "Share", iconName: "emblem-shared-symbolic", placement: .end)
        controls?.setButton(button) { [weak self] in self?.presentChoices(for: data) }
    }

    private func presentChoices(for data: MessageData) {
        let menu = ControlMenu(
            id: "share-menu", title: data.title ?? "Share",
            items: [
                .init(title: "Copy link", index: Choice.copyLink.rawValue),
                .init(title: "Open in browser", index: Choice.openInBrowser.rawValue),
            ], anchorButton: Self.buttonID)
        controls?.presentMenu(menu) { [weak self] index in
            switch index.flatMap(Choice.init(rawValue:)) {
            case .copyLink?:
                self?.controls?.copyToClipboard(data.url)
                self?.controls?.showToast("Link copied")
            case .openInBrowser?:
                self?.controls?.openInBrowser(data.url)
            case nil:
                break
            }
        }
    }
}

// MARK: Message data

extension ShareComponent {
    struct MessageData: Decodable {
        let url: String
        let title: String?
    }
}
