import CWebKitGTK
import StradaCore

/// Alerts: an `AdwMessageDialog` with a "dismiss" and a "confirm" response.
extension WindowControls {
    func presentAlert(_ alert: ControlAlert, onAnswer: @escaping @MainActor (Bool) -> Void) {
        if alerts[alert.id] != nil { closeAlert(id: alert.id, answer: false) }
        let dialog = adw_message_dialog_new(strada_gtk_window(window), alert.title, alert.message)!
        let messageDialog = strada_adw_message_dialog(dialog)
        adw_message_dialog_add_response(messageDialog, "dismiss", alert.dismissTitle)
        adw_message_dialog_add_response(messageDialog, "confirm", alert.confirmTitle)
        adw_message_dialog_set_response_appearance(
            messageDialog, "confirm", alert.isDestructive ? ADW_RESPONSE_DESTRUCTIVE : ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(messageDialog, "dismiss")
        adw_message_dialog_set_close_response(messageDialog, "dismiss")
        let id = alert.id
        onStringSignal(UnsafeMutableRawPointer(dialog), "response") { [weak self] response in
            self?.closeAlert(id: id, answer: response == "confirm")
        }
        alerts[alert.id] = AlertEntry(dialog: WidgetRef(dialog), alert: alert, onAnswer: onAnswer)
        gtk_window_present(strada_gtk_window(dialog))
        observer?(.added(ControlSnapshot(alert)))
    }

    /// Closes alert `id`; `answer` goes to its handler unless `nil` (page gone: nobody is told).
    func closeAlert(id: String, answer: Bool?) {
        guard let entry = alerts.removeValue(forKey: id) else { return }
        gtk_window_destroy(strada_gtk_window(entry.dialog.pointer))
        observer?(.removed(id: id))
        if let answer { entry.onAnswer?(answer) }
    }
}
