import Foundation
package import Logging

/// Starting plugins nothing declared (``DeclaredPlugin``): at start-up, all at once, waiting for their hellos; or one
/// added while the host runs, without waiting.
extension IsolatedPlugin {
    /// Starts one worker per plugin, all at once, and waits for them to load (at most `timeout` seconds for all
    /// together: start-up only, before the window exists). `file` is what the worker loads (a staged copy of
    /// `path`, or `path`). A worker that fails, crashes or hangs while loading is one ``PluginLoadError``. What
    /// each worker that loads says goes to `remember` (see ``rememberHello(_:components:)``).
    package static func start(
        _ plugins: [(path: String, file: String?)], launcher: PluginProcessLauncher, memoryLimitMB: Int = 1024,
        timeout: Double = helloTimeout, remember: RememberLoaded?, logger: Logger
    ) -> [Result<IsolatedPlugin, PluginLoadError>] {
        start(
            plugins, launcher: launcher, memoryLimitMB: memoryLimitMB, waiting: timeout, late: nil, remember: remember,
            logger: logger
        ).map { $0 ?? .failure(PluginLoadError(path: "?", reason: "not started", remedy: "")) }
    }

    /// ``start(_:launcher:memoryLimitMB:timeout:remember:logger:)``, waiting at most `grace` seconds: a worker that
    /// has not said hello by then goes on loading (and is killed after ``helloTimeout`` as any other), its slot is
    /// `nil`, and its outcome goes to `late` (with its index in `plugins`) when it comes, on the main thread.
    package static func start(
        _ plugins: [(path: String, file: String?)], launcher: PluginProcessLauncher, memoryLimitMB: Int = 1024,
        grace: Double, remember: RememberLoaded?, logger: Logger,
        late: @escaping @MainActor (Int, Result<IsolatedPlugin, PluginLoadError>) -> Void
    ) -> [Result<IsolatedPlugin, PluginLoadError>?] {
        start(
            plugins, launcher: launcher, memoryLimitMB: memoryLimitMB, waiting: grace, late: late, remember: remember,
            logger: logger)
    }

    /// Both of the above: with `late`, a worker still loading after `seconds` is left to load; without, it is
    /// killed as hung.
    private static func start(
        _ plugins: [(path: String, file: String?)], launcher: PluginProcessLauncher, memoryLimitMB: Int,
        waiting seconds: Double, late: (@MainActor (Int, Result<IsolatedPlugin, PluginLoadError>) -> Void)?,
        remember: RememberLoaded?, logger: Logger
    ) -> [Result<IsolatedPlugin, PluginLoadError>?] {
        var outcomes: [Result<IsolatedPlugin, PluginLoadError>?] = Array(repeating: nil, count: plugins.count)
        var waiting = true  // false once this returns: outcomes go to `late` from then on
        var started: [(Int, IsolatedPlugin)] = []
        for (index, plugin) in plugins.enumerated() {
            let isolated = IsolatedPlugin(
                path: plugin.path, file: plugin.file, launcher: launcher, memoryLimitMB: memoryLimitMB,
                remember: remember, logger: logger)
            do throws(PluginLoadError) {
                try isolated.spawn(
                    .start { outcome in
                        // The plugin is held by what it was started for until then.
                        withExtendedLifetime(isolated) {
                            if waiting { outcomes[index] = outcome } else { late?(index, outcome) }
                        }
                    })
                started.append((index, isolated))
            } catch {
                outcomes[index] = .failure(error)
            }
        }
        let deadline = Date().addingTimeInterval(seconds)
        for (_, plugin) in started {
            guard let connection = plugin.pending?.connection else { continue }
            switch connection.waitForFirst(until: deadline) {
            case .message(let first)?: plugin.helloArrived(first, from: connection)
            case .ended(let status)?: plugin.endedWhileLoading(connection, status: status)
            case nil: if late == nil { plugin.hung(connection, after: seconds) }
            }
        }
        waiting = false
        return outcomes
    }

    /// Starts a worker for `path` (loading `file`) without waiting; `completion` gets the plugin once it has
    /// loaded, or why not (after at most ``helloTimeout`` seconds). What the worker says goes to `remember`.
    package static func start(
        path: String, file: String?, launcher: PluginProcessLauncher, memoryLimitMB: Int = 1024,
        remember: RememberLoaded?, logger: Logger,
        completion: @escaping @MainActor (Result<IsolatedPlugin, PluginLoadError>) -> Void
    ) {
        let plugin = IsolatedPlugin(
            path: path, file: file, launcher: launcher, memoryLimitMB: memoryLimitMB, remember: remember,
            logger: logger)
        // Nothing else has the plugin until `completion`: what it was started for holds it until then.
        let started: @MainActor (Result<IsolatedPlugin, PluginLoadError>) -> Void = { outcome in
            withExtendedLifetime(plugin) { completion(outcome) }
        }
        do throws(PluginLoadError) { try plugin.spawn(.start(started)) } catch { completion(.failure(error)) }
    }
}
