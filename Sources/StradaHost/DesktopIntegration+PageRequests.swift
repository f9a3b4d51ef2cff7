import Foundation
import StradaAutomation
import StradaEngineGTK

/// What a page asks of the desktop that a browser would handle: permissions, notifications, downloads.
extension DesktopIntegration {
    /// A page asks for a permission: a remembered answer applies at once; otherwise the user is asked in
    /// `window` (the page's), and the answer is remembered for the app.
    func decide(_ request: PermissionRequest, in window: BrowserWindow) {
        let origin = request.origin, kind = request.kind
        if let allowed = permissions.answer(origin: origin, kind: kind) {
            request.answer(allowed)
            automation?.emit(.permissionAnswered(origin: origin, kind: kind, allowed: allowed, remembered: true))
            return
        }
        let host = URLComponents(string: origin)?.host ?? origin
        let question = PermissionStore.question(kind: kind, host: host)
        window.ask(
            id: "permission.\(kind)", title: question.title, message: question.message, yes: "Allow", no: "Deny"
        ) { [weak self] allowed in
            request.answer(allowed)
            self?.permissions.remember(origin: origin, kind: kind, allowed: allowed)
            self?.automation?.emit(
                .permissionAnswered(origin: origin, kind: kind, allowed: allowed, remembered: false))
        }
    }

    /// A web notification: a desktop notification from the app (GNotification) when it is on a session bus,
    /// else a toast in `window` (the one the user acts in).
    func show(notification title: String, body: String, in window: BrowserWindow) {
        if Self.application?.notify(title: title, body: body) == true { return }
        window.toast(body.isEmpty ? title : "\(title): \(body)")
    }

    /// A download ended: a toast in `window` (the one the user acts in) saying where the file is; reported.
    func downloadEnded(_ path: String, error: String?, in window: BrowserWindow) {
        if let error {
            logger.warning("the download to \(path) failed: \(error)")
            window.toast("Download failed: \(error)")
            automation?.emit(.downloadFailed(path: path, error: error))
        } else {
            logger.info("downloaded \(path)")
            window.toast("Downloaded \((path as NSString).lastPathComponent) to Downloads")
            automation?.emit(.downloadFinished(path: path))
        }
    }
}
