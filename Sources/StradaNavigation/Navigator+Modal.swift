/// Modals: a stack of their own in a window of their own, over the main one.
extension Navigator {
    /// Presents a modal for a visit to `location` (its own window, web view and stack over this one).
    func presentModal(_ location: String, properties: PathProperties) {
        if modal != nil { dismissModal(reason: "replaced") }
        guard let modal = makeModal?(location, properties) else {
            logger.error("a modal for \(location) could not be presented; visiting it on the main stack")
            visitFromModal(location, properties: PathProperties())
            return
        }
        modal.parent = self
        self.modal = modal
        window.setPresentedModal(modal.window)
    }

    /// Dismisses the modal: its screens and components go, its window closes; the main screen underneath,
    /// live all along, is shown as it was. Reported with `reason` (`nil`: the host is stopping). `false`
    /// when no modal is presented.
    @discardableResult
    package func dismissModal(reason: String?) -> Bool {
        guard let modal else { return false }
        self.modal = nil
        window.setPresentedModal(nil)
        modal.tearDown()
        modal.window.destroy()
        if let reason { report?(.modalDismissed(reason: reason)) }
        return true
    }
}
