import Foundation
import Logging
import StradaAutomation
import StradaEngineGTK

/// What makes the host a desktop app rather than a browser tab: the app's identity and its one instance on
/// the session bus, where its website data lives (the ``NetworkSession`` every window shares), the window's
/// size kept between runs, and the browser requests a page makes of the desktop (permissions, notifications,
/// downloads: `DesktopIntegration+PageRequests.swift`). Opening the display and handing a launch over to a
/// running instance happen once a process, before any session (`DesktopIntegration+Display.swift`).
@MainActor
final class DesktopIntegration {
    /// The network session every window of the session shares (website data, downloads).
    let networkSession: NetworkSession
    let permissions: PermissionStore
    let automation: AutomationChannel?
    let logger: Logger
    private let configuration: HostConfiguration

    /// Names the app for the desktop (icon, application name) and chooses where website data lives.
    init(configuration: HostConfiguration, automation: AutomationChannel?, logger: Logger) {
        self.configuration = configuration
        self.automation = automation
        self.logger = logger
        let websiteData = Self.websiteData(for: configuration)
        if case .persistent(let data, let cache) = websiteData { logger.debug("website data in \(data) and \(cache)") }
        networkSession = NetworkSession(websiteData: websiteData)
        permissions = PermissionStore(
            file: configuration.ephemeral ? nil : configuration.websiteDataDirectories.data + "/permissions.json",
            logger: logger)
        BrowserWindow.setIdentity(
            id: configuration.appID, name: configuration.title, windowClass: configuration.windowClass)
    }

    /// Where the session keeps website data: the WebDriver's automation session holds it under `--webdriver`
    /// (the web view it drives and any modal); nothing is kept when ephemeral; else the app's folders.
    static func websiteData(for configuration: HostConfiguration) -> WebsiteData {
        if configuration.webDriver { return .automation }
        if configuration.ephemeral { return .ephemeral }
        let folders = configuration.websiteDataDirectories
        return .persistent(data: folders.data, cache: folders.cache)
    }

    // MARK: The window's size between runs

    /// The main window's state when the app last ended (`nil`: ephemeral, none kept, or not usable).
    var restoredWindowState: WindowState? {
        configuration.ephemeral ? nil : WindowState.load(from: configuration.windowStateFile)
    }

    /// Keeps `window`'s size and maximised state for the next run (not when ephemeral); a failure is a warning.
    func keepWindowState(of window: BrowserWindow) {
        guard !configuration.ephemeral else { return }
        let (width, height, maximized) = window.savedState
        do {
            try WindowState(width: width, height: height, maximized: maximized).save(to: configuration.windowStateFile)
        } catch {
            logger.warning("could not keep the window's size in \(configuration.windowStateFile): \(error)")
        }
    }

    // MARK: One instance per app

    /// Makes `window` the app's on the desktop (when this launch registered the app on the session bus): a
    /// later launch's URL goes to `visit`, a later launch without one to `activate`.
    func join(
        _ window: BrowserWindow, visit: @escaping @MainActor (String) -> Void,
        activate: @escaping @MainActor () -> Void
    ) {
        guard let application = Self.application else { return }
        window.join(application)
        application.onVisit = visit
        application.onActivate = activate
    }
}
