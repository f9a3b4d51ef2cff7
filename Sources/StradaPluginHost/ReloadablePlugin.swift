package import StradaCore

/// One plugin file's plugin as hot reload sees it, however it runs: opened (or only declared) in the host's
/// process (``InProcessPlugin``) or in a worker process (``IsolatedPlugin``). The host has one hot-reload path
/// over this: a changed file is staged and handed to its plugin's ``reload(from:completion:)``, a new file to its
/// set's ``ReloadablePluginSet/start(path:file:completion:)``, and a removed file's plugin is taken out of its set,
/// its instances destroyed, and then shut down.
@MainActor
package protocol ReloadablePlugin: AnyObject {
    /// The watched file.
    var path: String { get }
    var id: String { get }
    /// The components it provides now.
    var componentNames: [String] { get }
    /// The SHA-256 of the build it serves, when known: a file changed to the same bytes goes no further.
    var sha256: String? { get }
    /// Loads the build staged at `staged` (validated first) and swaps it in: the page's live instances of its
    /// components come back with every cached message. `completion` gets what happened, or why the new build
    /// did not load (the old one keeps serving). It never waits on the main thread for a worker.
    func reload(
        from staged: (path: String, sha256: String),
        completion: @escaping @MainActor (Result<ReloadedBuild, PluginLoadError>) -> Void)
    /// It is no longer used (its file was removed, or the host is stopping); called after its instances are gone.
    func shutdown()
}

/// What a successful reload did.
package struct ReloadedBuild: Sendable {
    /// 1 for a file's first build, then one more per reload.
    package var generation: Int
    /// The page's components brought back with the new build.
    package var reinstantiated: [String]
    package var milliseconds: Double
    /// The host's resident-memory change (0 when the plugin runs in a worker).
    package var residentKilobytesDelta: Int
    /// Where the new build runs, for the log line: "" (in the host) or " in a new worker".
    package var placement: String

    package init(
        generation: Int, reinstantiated: [String], milliseconds: Double, residentKilobytesDelta: Int, placement: String
    ) {
        self.generation = generation
        self.reinstantiated = reinstantiated
        self.milliseconds = milliseconds
        self.residentKilobytesDelta = residentKilobytesDelta
        self.placement = placement
    }
}

/// All plugins of a host run of one kind — in process (``PluginRegistry``) or isolated (``IsolatedPlugins``) —
/// as hot reload sees them.
@MainActor
package protocol ReloadablePluginSet: AnyObject {
    /// Every plugin, in load order.
    var members: [any ReloadablePlugin] { get }
    /// Registrations of the components served now: what new pages get.
    var registrations: [ComponentRegistration] { get }
    /// Starts serving a plugin file that appeared while the host runs (`file`: its staged copy).
    func start(
        path: String, file: (path: String, sha256: String),
        completion: @escaping @MainActor (Result<any ReloadablePlugin, PluginLoadError>) -> Void)
    /// Stops announcing `plugin` and routing to it; its instances are destroyed next, then it is shut down.
    func remove(_ plugin: any ReloadablePlugin)
}
