package import StradaCore

/// Puts the form's submit button in the header bar; pressing it asks the page to submit.
///
/// Web → native: `connect {submitTitle}` (also `{title}`), `submitDisabled`/`submitEnabled`
/// (also `disableSubmit`/`enableSubmit`), `disconnect`. Native → web: `reply(to: "connect")` on press.
package final class FormComponent: BridgeComponent {
    package nonisolated override class var name: String { "form" }

    package override func onReceive(message: Message) {
        guard let event = Event(rawValue: message.event) else { return }
        switch event {
        case .connect: handleConnect(message: message)
        case .submitEnabled, .enableSubmit: setSubmitEnabled(true)
        case .submitDisabled, .disableSubmit: setSubmitEnabled(false)
        case .disconnect: removeSubmitButton()
        }
    }

    package override func onDestroy() {
        controls?.removeButton(id: Self.submitButtonID)
    }

    // MARK: Private

    private static let submitButtonID = "submit"
    private var submitButton: HeaderButton?

    private enum Event: String {
        case connect, disconnect
        case submitEnabled, submitDisabled
        case enableSubmit, disableSubmit
    }

    private func handleConnect(message: Message) {
        guard let data: MessageData = message.data() else { return }
        let button = HeaderButton(
            id: Self.submitButtonID, title: data.submitTitle ?? data.title ?? "Submit", placement: .end,
            style: .suggested)
        show(button)
    }

    private func setSubmitEnabled(_ enabled: Bool) {
        guard var button = submitButton else { return }
        button.isEnabled = enabled
        show(button)
    }

    /// The form is gone: its button goes, and a late `submitEnabled` does not bring it back (only a new
    /// `connect` does).
    private func removeSubmitButton() {
        submitButton = nil
        controls?.removeButton(id: Self.submitButtonID)
    }

    private func show(_ button: HeaderButton) {
        submitButton = button
        controls?.setButton(button) { [weak self] in self?.reply(to: Event.connect.rawValue) }
    }
}

// MARK: Message data

extension FormComponent {
    struct MessageData: Decodable {
        let submitTitle: String?
        let title: String?
    }
}
