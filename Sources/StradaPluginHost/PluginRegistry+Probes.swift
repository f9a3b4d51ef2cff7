import Foundation

/// What a probe's answer makes of a file nothing declared, at start-up or after it.
extension PluginRegistry {
    /// The plugin a probe's `status` makes of the file at `path`: declared from the answer when it loaded, or opened
    /// here when the probe refused it or there was no probe (`nil`: its refusal and log are then the host's own);
    /// the error when it crashed or hung in the probe, or does not load here either.
    func plugin(probed path: String, _ status: PluginStatus?) -> Result<InProcessPlugin, PluginLoadError> {
        switch status {
        case let status? where status.state == .loaded && status.id != nil:
            let plugin = DeclaredPlugin(
                path: path, id: status.id ?? "", version: status.version ?? "0.0.0", componentNames: status.components,
                probed: true)
            return .success(InProcessPlugin(path: path, state: .declared(plugin), registry: self))
        case let status? where status.state == .crashed:
            if let log = status.log { logger.notice("plugin \(path) said before it failed: \(log)") }
            return .failure(
                PluginLoadError(
                    path: path, reason: status.reason ?? "failed to load",
                    remedy: status.remedy ?? "fix the plugin or remove it"))
        default:
            return loadFromSource(path, number: 1).map { generation in
                InProcessPlugin(path: path, state: .opened(generation), registry: self)
            }
        }
    }

    /// A file first seen at start-up answered its probe after start-up was done (``loadAll(except:)``): it is
    /// remembered, added at its place in the load order (a component name an earlier plugin serves stays that
    /// plugin's, with the usual warning), and handed to ``onLateProbe``; or its one error line is written and the
    /// error handed on.
    func probeAnsweredLate(_ path: String, _ status: PluginStatus) {
        guard !stopped, !members.contains(where: { $0.path == path }) else { return }
        cache.remember([status])
        switch plugin(probed: path, status) {
        case .failure(let error):
            logger.error("\(error.description)")
            onLateProbe?(.failure(error))
        case .success(let plugin):
            insert(plugin)
            for name in plugin.componentNames {
                guard let owner = ownerPath(of: name), owner != path else { continue }
                logger.warning("\(PluginLoader.conflictWarning(component: name, owner: owner, other: path))")
            }
            onLateProbe?(.success(plugin))
        }
    }
}

/// Probes of several files started at once (as many at a time as ``PluginProbe/inspect(files:launcher:)``
/// runs), off the caller's thread, whose answers the caller takes as they are when it stops waiting: those that
/// come later go to a handler of their own.
final class ProbeBatch: @unchecked Sendable {  // `answers` and `late` are used under `condition`
    private let condition = NSCondition()
    private var answers: [Int: PluginStatus] = [:]
    private var late: (@Sendable (Int, PluginStatus) -> Void)?
    private let count: Int

    /// Starts probing `files`, each in a child process started by `launcher`.
    init(files: [String], launcher: PluginProcessLauncher) {
        count = files.count
        DispatchQueue.global().async { [self] in
            DispatchQueue.concurrentPerform(iterations: files.count) { index in
                answered(index, PluginProbe.inspect(file: files[index], launcher: launcher))
            }
        }
    }

    /// Waits until every file has answered or `seconds` have passed; returns the answers so far, by index in
    /// `files`. Each later answer goes to `late`, on the thread that probed it.
    func answers(
        within seconds: Double, late: @escaping @Sendable (Int, PluginStatus) -> Void
    ) -> [Int: PluginStatus] {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while answers.count < count, condition.wait(until: deadline) {}
        self.late = late
        return answers
    }

    private func answered(_ index: Int, _ status: PluginStatus) {
        condition.lock()
        if let late {
            condition.unlock()
            return late(index, status)
        }
        answers[index] = status
        condition.broadcast()
        condition.unlock()
    }
}
