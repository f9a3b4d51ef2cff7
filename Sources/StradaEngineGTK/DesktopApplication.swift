import CWebKitGTK

/// The app on the session bus: an `AdwApplication` with the app's id, so that there is one instance per app.
/// The first launch is primary and keeps running; a later launch finds it, hands over its URL (or asks it to
/// show itself) and ends.
@MainActor
package final class DesktopApplication {
    /// What registering found.
    package enum Registration: Equatable {
        /// This process is the app's instance (also when there is no session bus: then it runs on its own).
        case primary
        /// Another process is the app's instance.
        case alreadyRunning
        /// The bus refused the registration (the reason); the app runs on its own.
        case failed(String)
    }

    private final class Handlers {
        var visit: (@MainActor (String) -> Void)?
        var activate: (@MainActor () -> Void)?
    }

    /// The application; its reference is the process's, never released: GIO warns when a registered application
    /// that never ran `g_application_run` is finalized ("did not unregister from D-Bus before destruction"), and
    /// the app is the process's for its whole life anyway.
    private let application: UnsafeMutablePointer<GApplication>
    private let handlers = Handlers()

    /// The primary instance was asked to visit a URL by a later launch.
    package var onVisit: (@MainActor (String) -> Void)? {
        get { handlers.visit }
        set { handlers.visit = newValue }
    }
    /// The primary instance was asked to show itself by a later launch.
    package var onActivate: (@MainActor () -> Void)? {
        get { handlers.activate }
        set { handlers.activate = newValue }
    }

    /// An application for `id` (reverse-DNS), not registered yet.
    package init(id: String) {
        application = strada_application_new(
            id,
            { url, data in
                guard let url, let data else { return }
                let handlers = Unmanaged<Handlers>.fromOpaque(data).takeUnretainedValue()
                let text = String(cString: url)
                MainActor.assumeIsolated { handlers.visit?(text) }
            },
            { data in
                guard let data else { return }
                let handlers = Unmanaged<Handlers>.fromOpaque(data).takeUnretainedValue()
                MainActor.assumeIsolated { handlers.activate?() }
            }, Unmanaged.passRetained(handlers).toOpaque())
    }

    /// Registers the id on the session bus.
    package func register() -> Registration {
        var message: UnsafeMutablePointer<CChar>?
        switch strada_application_register(application, &message) {
        case 0: return .primary
        case 1: return .alreadyRunning
        default:
            defer { g_free(message) }
            return .failed(message.map { String(cString: $0) } ?? "registration failed")
        }
    }

    /// From a later launch: asks the running instance to visit `url` (`nil`: to show itself).
    package func handOver(url: String?) {
        strada_application_forward(application, url)
    }

    /// Shows a desktop notification (GNotification, through the session bus's notification service).
    /// `false` when the app is not on a session bus.
    package func notify(title: String, body: String) -> Bool {
        strada_application_notify(application, title, body) != 0
    }

    /// Makes `window` the application's window (the desktop sees the app's id on it).
    func add(window: UnsafeMutablePointer<GtkWidget>) {
        strada_application_add_window(application, window)
    }
}
