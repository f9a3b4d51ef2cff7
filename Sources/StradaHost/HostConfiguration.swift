import Foundation
package import StradaCore
package import StradaEngineGTK
package import StradaNavigation
package import StradaPluginHost

/// What `strada-host run` was asked to do: the start page, who gets the bridge, where plugins come from,
/// and how the host reports. Built by the executable from its arguments.
package struct HostConfiguration: Sendable {
    /// The start page (an http(s) or file URL).
    package var startURL: String
    /// Which pages get the bridge (adapter scripts and routing).
    package var originPolicy: OriginPolicy
    /// Folders holding plugin shared libraries.
    package var pluginDirectories: [String]
    /// Event-name prefixes the automation channel reports (`[""]`: all), or `nil` for no channel.
    package var automationEvents: [String]?
    /// The automation channel on a Unix socket at this path too (or only: without `automationEvents`).
    package var automationSocket: String?
    /// WebDriver: the web view is controlled by automation and handed to the session WebKitWebDriver asks for.
    package var webDriver = false
    /// Benchmarks only: the bare engine echo channel.
    package var benchmarkEchoChannel = false
    /// Hot reload: watch the plugin folders and swap in rebuilt plugins.
    package var watch = false
    /// Run each plugin in its own worker process.
    package var isolate = false
    /// Every isolated plugin's worker in the sandbox (``PluginSandbox``).
    package var sandbox = false
    /// Report every bridge message as a trace line.
    package var trace = false
    /// Text placed before our product token in the user agent.
    package var userAgentPrefix: String?
    /// The window title shown when no page or component set one.
    package var title = "Strada"
    /// The app's id (reverse-DNS): names its website-data folders.
    package var appID = HostConfiguration.defaultAppID
    /// Keep no website data: cookies, storage and cache are thrown away at exit (kiosks, tests).
    package var ephemeral = false
    /// The main window's size at start-up (default 960 × 640).
    package var windowSize: (width: Int, height: Int)?
    /// The app's colour scheme (default: the system's).
    package var colorScheme: ColorScheme?
    /// What each plugin (by id) may do, replacing its manifest's declaration: the app definition's `grants`.
    package var grants: [String: PluginGrant.Override] = [:]
    /// Load only plugins installed from packages signed by a trusted publisher key.
    package var requireSignedPlugins = false
    /// Developer mode (`run --inspect`, or the definition's `"developer": true`): WebKit's inspector on F12 and
    /// Ctrl+Shift+I, and "Inspect Element" in the context menu.
    package var developer = false
    /// The primary menu's items of the app's own (its definition's `menu`).
    package var menuItems: [PrimaryMenu.Item] = []
    /// What the About window says (default: the title only).
    package var about: AboutInfo?
    /// The window's class on X11 (`WM_CLASS`, what a desktop entry's `StartupWMClass` names; default the
    /// app's id).
    package var windowClass: String?
    /// The app's tabs (its definition's `tabs`): empty for one stack without a view switcher.
    package var tabs: [TabDefinition] = []
    /// The URL the command line named: a later launch of a running app hands it to the running instance
    /// (`nil`: the later launch only raises the running instance's window).
    package var requestedURL: String?
    /// Where the window's size and maximised state are kept between runs unless ``ephemeral``:
    /// `$XDG_STATE_HOME/<id>/window.json` (by default under `~/.local/state`).
    package var windowStateFile: String {
        BaseDirectory.state.appending("\(appID)/window.json")
    }
    /// The id of an app that has none of its own.
    package static let defaultAppID = "dev.strada.Host"

    /// Where the app's website data lives unless ``ephemeral``: `$XDG_DATA_HOME/<id>/` (cookies, local
    /// storage, IndexedDB, service workers) and `$XDG_CACHE_HOME/<id>/` (the HTTP cache).
    package var websiteDataDirectories: (data: String, cache: String) {
        (BaseDirectory.data.appending(appID), BaseDirectory.cache.appending(appID))
    }

    /// Where the path configuration comes from, in order (the last one that loaded wins).
    package var pathConfigurationSources: [PathConfigurationSource] = []
    /// Where a server's path configuration is cached (default `$XDG_CACHE_HOME/strada/path-configuration`).
    package var pathConfigurationCache: String?

    package init(startURL: String, originPolicy: OriginPolicy, pluginDirectories: [String]) {
        self.startURL = startURL
        self.originPolicy = originPolicy
        self.pluginDirectories = pluginDirectories
    }
}

/// Where the session's text output goes: the executable decides how to print it.
package struct HostOutput {
    /// One automation event line (stdout under `--automation`).
    package var automation: @MainActor (String) -> Void
    /// One trace line (stderr under `--trace`).
    package var trace: @MainActor (String) -> Void

    package init(automation: @escaping @MainActor (String) -> Void, trace: @escaping @MainActor (String) -> Void) {
        self.automation = automation
        self.trace = trace
    }
}

/// Why a session could not start.
package struct HostError: Error, CustomStringConvertible, Sendable {
    package let description: String

    /// There is no display to open a window on.
    package static let noDisplay = HostError(
        description: "cannot open a display; run under `xvfb-run -a` when there is none")

    /// The display the environment names (`DISPLAY` or `WAYLAND_DISPLAY`) could not be opened, twice.
    package static func displayUnreachable(_ name: String) -> HostError {
        HostError(
            description: "cannot open display \(name): its server is not running or refused the connection; "
                + "check DISPLAY and XAUTHORITY, or unset DISPLAY and run under `xvfb-run -a`")
    }
}
