import Logging
import StradaEngineGTK

/// Once a process, before any session: the session bus address and runtime folder made safe for WebKit, the
/// display opened, and the app registered on the session bus (or the launch handed to the running instance).
extension DesktopIntegration {
    /// The app's registration on the session bus, made by ``handOverToRunningApp(_:logger:)`` (once a process).
    private(set) static var application: DesktopApplication?

    /// Whether the display is open (once a process).
    private static var displayOpen = false

    /// One instance per app: unless the configuration is ephemeral, registers the app's id on the session
    /// bus. When the app is already running, hands it ``HostConfiguration/requestedURL`` (or asks it to show
    /// its window) and returns `true`: this launch is done. Without a session bus every launch runs on its own.
    static func handOverToRunningApp(_ configuration: HostConfiguration, logger: Logger) throws(HostError) -> Bool {
        guard !configuration.ephemeral else { return false }
        try openDisplay(logger: logger)
        StartupTimeline.mark("display")
        guard SessionBus.reachable else {
            logger.debug("no session bus: \(configuration.appID) runs on its own")
            return false
        }
        let application = DesktopApplication(id: configuration.appID)
        let registration = application.register()
        StartupTimeline.mark("application")
        switch registration {
        case .alreadyRunning:
            application.handOver(url: configuration.requestedURL)
            logger.info("\(configuration.appID) is already running: handed it over and exiting")
            return true
        case .failed(let reason):
            logger.warning("\(configuration.appID) runs on its own: the session bus refused it (\(reason))")
        case .primary:
            Self.application = application
        }
        return false
    }

    /// Opens the display, once a process. First makes the session bus address safe for WebKit (see
    /// ``SessionBus``) and the runtime folder short enough for its sockets, and says so when it had to change
    /// either. Throws ``HostError/noDisplay`` when there is no display, and ``HostError/displayUnreachable(_:)``
    /// when the one the environment names cannot be opened.
    static func openDisplay(logger: Logger) throws(HostError) {
        guard !displayOpen else { return }
        switch SessionBus.settleAddress() {
        case .kept:
            break
        case .narrowed(let list):
            logger.debug("DBUS_SESSION_BUS_ADDRESS \(list) narrowed to its first usable entry for WebKit's sandbox")
        case .dropped(let paths):
            let without =
                SessionBus.reachable
                ? "going on with the user's bus \(SessionBus.userBus ?? "")"
                : "going on without a session bus (one instance per app and notifications are off)"
            let named = paths.map { "unix:path=\($0)" }.joined(separator: ", ")
            let exist = paths.count == 1 ? "does not exist" : "do not exist"
            logger.warning(
                "DBUS_SESSION_BUS_ADDRESS names \(named), which \(exist); \(without). Unset it or start a bus")
        }
        if SessionBus.quietAccessibility() {
            logger.debug("no session bus: GTK's accessibility bus cannot be reached, so GTK_A11Y=none")
        }
        if case .replaced(let folder, let replacement) = RuntimeFolder.settle() {
            logger.info(
                """
                the runtime folder \(folder) is \(folder.utf8.count) bytes long, too long for WebKit's sandbox \
                sockets (a socket path is at most 107 bytes): using \(replacement) (set a shorter XDG_RUNTIME_DIR)
                """)
        }
        guard Display.open() else { throw Display.name.map(HostError.displayUnreachable) ?? .noDisplay }
        displayOpen = true
        if Display.openedOnSecondTry {
            logger.info(
                """
                the X display dropped the first connection and took the second (an X server resetting as its last \
                client left; Xvfb -noreset avoids it)
                """)
        }
    }
}
