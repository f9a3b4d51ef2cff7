import Dispatch
package import Logging

/// Lazy workers: a plugin that runs in a worker and that the host can declare (``DeclaredPlugin``: the plugin
/// manifest cache knows the file, or its installed manifest names an `id` and `components`) is announced from its
/// declaration and gets no worker until it is first needed — a page creates one of its components, or one of its
/// actions is called — as in-process plugins are opened only then. What is sent to it before its worker's hello
/// waits in the worker's input, as during a restart, and is handled in order once it has loaded. A first worker
/// that does not load (an error, a crash, no hello in ``helloTimeout`` s, or a hello that does not match the
/// declaration) is reported once, in one line; the plugin's components then drop messages with the reason.
extension IsolatedPlugin {
    /// Where a declared plugin stands before its first worker serves.
    enum Lazy {
        /// Announced from its declaration; no worker yet.
        case declared(DeclaredPlugin)
        /// Its first worker is loading (messages to it queue until its hello).
        case starting(DeclaredPlugin)
        /// Its first worker did not load (reported once): its components drop messages until a new build loads.
        case broken(PluginLoadError)

        /// Why a first worker's hello (`id`, `components`) does not match what was announced; `nil` when it does.
        func mismatch(id: String, components: [String]) -> PluginLoadError? {
            switch self {
            case .declared(let declared), .starting(let declared):
                declared.mismatch(id: id, components: components)
            case .broken: nil
            }
        }
    }

    /// A plugin announced from `declared` (its id, version and components), whose worker is started only when
    /// first needed. `file`: what that worker loads (a staged copy of the plugin under `--watch`, else the file).
    /// `remember`: where what the worker of a new build of it says goes (``rememberHello(_:components:)``).
    package static func declared(
        _ declared: DeclaredPlugin, file: String?, launcher: PluginProcessLauncher, memoryLimitMB: Int = 1024,
        remember: RememberLoaded?, logger: Logger
    ) -> IsolatedPlugin {
        let plugin = IsolatedPlugin(
            path: declared.path, file: file, launcher: launcher, memoryLimitMB: memoryLimitMB, remember: remember,
            logger: logger)
        plugin.id = declared.id
        plugin.version = declared.version
        plugin.componentNames = declared.componentNames
        plugin.lazy = .declared(declared)
        return plugin
    }

    /// Its manifest as read when it was declared (``DeclaredPlugin/manifest``), until its first worker serves (or
    /// fails to); `nil` then, or when it was not read.
    var declaredManifest: PluginManifest?? {
        switch lazy {
        case .declared(let declared)?, .starting(let declared)?: declared.manifest
        case .broken?, nil: nil
        }
    }

    /// Whether it is declared and no worker runs for it, nor is starting.
    var waitingForFirstUse: Bool {
        if case .declared = lazy { connection == nil } else { false }
    }

    /// Whether its first worker is loading: what is sent to it waits for the hello.
    var startingOnFirstUse: Bool {
        if case .starting = lazy { true } else { false }
    }

    /// Starts a declared plugin's first worker (`why`: what needs it, for the log line); nothing for any other.
    func wake(for why: String) {
        guard case .declared(let declared) = lazy else { return }
        lazy = .starting(declared)
        if let pending, case .reload = pending.purpose {
            // A new build is loading already: it serves this first use, its instances queued in it.
            connection = pending.connection
            return
        }
        do throws(PluginLoadError) {
            try spawn(.firstUse(started: DispatchTime.now().uptimeNanoseconds, why: why))
        } catch {
            firstUseFailed(error)
        }
    }

    /// Its first worker did not load: one line and ``Event/loadFailed(_:)``, once; what its components were sent
    /// while it loaded is reported dropped, as is all they are sent from now on (until a new build loads).
    func firstUseFailed(_ error: PluginLoadError) {
        lazy = .broken(error)
        connection = nil
        failCalls("it failed to load when first needed")
        logger.error("\(error.description)")
        onEvent?(.loadFailed(error))
        for (_, component) in components.sorted(by: { $0.key < $1.key }) {
            for message in component.cachedMessages { drop(message) }
        }
    }

    /// A new build adopted by a page's first use, or by a restart after a crash, while it loaded did not load: the
    /// build it replaced (the one the plugin was declared with, or the one that crashed) is started instead, and
    /// the page's instances are brought back in it.
    func reloadFailedAfterAdoption() {
        connection = nil
        failCalls("its new build did not load")
        if lazy == nil { return restart() }
        guard case .starting = lazy else { return }
        do throws(PluginLoadError) {
            try spawn(.firstUse(started: DispatchTime.now().uptimeNanoseconds, why: "its page, after a failed build"))
        } catch {
            return firstUseFailed(error)
        }
        bringBack(excludingLastDelivered: false)
    }

    /// What a hot reload's error line says of the plugin after a new build failed to load.
    var afterFailedReload: String {
        switch lazy {
        case .declared?, .starting?: "the previous build is started when first needed"
        case .broken?: "the plugin stays unavailable"
        case nil: disabled ? "the plugin stays disabled" : "the previous build keeps serving"
        }
    }
}

extension DeclaredPlugin {
    /// Why a worker that loaded this file as `id` providing `components` is not the plugin announced (the id and
    /// the set of component names must be the same); `nil` when it is. Pages were told the announced components,
    /// so a plugin that provides others does not serve.
    package func mismatch(id loaded: String, components: [String]) -> PluginLoadError? {
        guard loaded != id || Set(components) != Set(componentNames) else { return nil }
        let source = probed ? "the plugin manifest cache" : "its manifest"
        return PluginLoadError(
            path: path,
            reason: """
                loaded as \(loaded) providing [\(components.joined(separator: " "))], but \(source) announced \
                \(id) providing [\(componentNames.joined(separator: " "))]
                """,
            remedy: probed
                ? "reinstall it (a rewritten file is probed again)"
                : "fix its manifest, or reinstall it with `strada-host plugin install`, which writes what it provides")
    }
}
