import Foundation
package import Logging
package import StradaCore

/// The plugins a host serves from, by generation, with hot reload: a changed plugin file is copied to a
/// unique staging path (never `dlopen`ed where it is watched), validated in a probe child process, loaded,
/// and swapped in; a failing new build leaves the old generation serving. Old generations get `shutdown`
/// but are never unloaded (Swift images cannot be `dlclose`d).
@MainActor
package final class PluginRegistry {
    /// One loaded generation of one plugin file.
    package struct Generation: Sendable {
        package let plugin: LoadedPlugin
        /// The watched file it came from (the plugin's own path is the staged copy).
        package let sourcePath: String
        /// The file's SHA-256 when the registry stages copies (hot reload); `nil` otherwise.
        package let sha256: String?
        package let number: Int
    }

    /// What a file change led to.
    package enum Change: Sendable {
        case unchanged(path: String)
        case added(Generation)
        case reloaded(Generation, previous: Generation, milliseconds: Double, residentKilobytesDelta: Int)
        case failed(path: String, error: String)
        case removed(path: String, components: [String])
    }

    private let directories: [String]
    private let logger: Logger
    private let stagingDirectory: String?
    private var stagedCopies = 0
    private var generations: [String: Generation] = [:]
    private var counter = 0

    private let launcher: PluginProcessLauncher?
    /// With staging and a launcher: the probe child started ahead of time for the next reload.
    private var spareProbe: SpareProbe?
    private var stopped = false

    /// `staging`: copy each plugin to a private folder before loading it (needed to reload; `run --watch`),
    /// validating each new build in a probe child started by `launcher`.
    package init(directories: [String], staging: Bool, launcher: PluginProcessLauncher? = nil, logger: Logger) {
        self.directories = directories
        self.launcher = launcher
        self.logger = logger
        if staging {
            let folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("strada-staging-\(getpid())")
            try? FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            stagingDirectory = folder
        } else {
            stagingDirectory = nil
        }
    }

    /// Loads every plugin in the directories (first load), through the same directory walk as
    /// ``PluginLoader/load(directories:)``. With a launcher, each file not yet known to load is first probed in a
    /// child process (in parallel): one that crashes or hangs there is refused with one line and never
    /// `dlopen`ed here, so it cannot take the host down at start-up.
    package func loadAll() -> PluginLoadReport {
        let failed = launcher.map { PluginProbe.crashes(in: directories, launcher: $0, logger: logger) } ?? [:]
        return PluginLoader.walk(directories, logger: logger) { path in
            if let status = failed[path], let error = status.loadError { return .failure(error) }
            return self.load(path, probe: false).map(\.plugin)
        }
    }

    /// Hot reload is on: a probe child is started ahead of time (half a second from now, off the start-up's
    /// path), so a rebuilt plugin is validated without waiting for a process to start.
    package func prepareForReload() {
        guard stagingDirectory != nil, let launcher, spareProbe == nil else { return }
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.5) { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.spareProbe == nil, !self.stopped else { return }
                self.spareProbe = SpareProbe(launcher: launcher)
            }
        }
    }

    /// Component names served now, first owner wins (directories in order, files by name).
    package var componentNames: [String] { orderedGenerations.flatMap(\.plugin.componentNames).uniqued() }

    /// Registrations that resolve the current generation when a page creates the component.
    package var registrations: [ComponentRegistration] {
        componentNames.map { name in
            ComponentRegistration(
                name: name,
                pageCheck: { [weak self] url in
                    guard let plugin = self?.owner(of: name)?.plugin else { return nil }
                    return PluginGrants.refusal(of: name, plugin: plugin.id, manifest: plugin.manifest, pageURL: url)
                }
            ) { [weak self] destination, delegate in
                guard let generation = self?.owner(of: name),
                    let registration = generation.plugin.registrations.first(where: { $0.name == name })
                else { return UnavailableComponent(destination: destination, delegate: delegate) }
                return registration.make(destination, delegate)
            }
        }
    }

    /// The host is stopping: every plugin gets its `shutdown`.
    package func shutdownAll() {
        retireReplaced()
        for generation in orderedGenerations { generation.plugin.shutdown() }
        generations.removeAll()
        spareProbe?.stop()
        spareProbe = nil
        stopped = true
        // The staged copies stay mapped while the process lives; their names can go now.
        if let stagingDirectory { try? FileManager.default.removeItem(atPath: stagingDirectory) }
    }

    /// The current generation of every plugin, in load order.
    package var plugins: [LoadedPlugin] { orderedGenerations.map(\.plugin) }

    /// The current generation of the plugin with `id`.
    package func plugin(id: String) -> LoadedPlugin? {
        orderedGenerations.first { $0.plugin.id == id }?.plugin
    }

    /// The generation that serves component `name`.
    package func owner(of name: String) -> Generation? {
        orderedGenerations.first { $0.plugin.componentNames.contains(name) }
    }

    /// Handles a change of `path` reported by the watcher.
    package func fileChanged(_ path: String) -> Change {
        guard !path.hasSuffix(".json") else {
            // A manifest changed: re-check the plugin it belongs to.
            let plugin = (path as NSString).deletingPathExtension + ".so"
            return FileManager.default.fileExists(atPath: plugin) ? fileChanged(plugin) : .unchanged(path: path)
        }
        guard FileManager.default.fileExists(atPath: path) else {
            guard let gone = generations.removeValue(forKey: path) else { return .unchanged(path: path) }
            retiring.append(gone)
            return .removed(path: path, components: gone.plugin.componentNames)
        }
        let previous = generations[path]
        if let previous, let known = previous.sha256, (try? PluginManifest.sha256(ofFile: path)) == known {
            return .unchanged(path: path)
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let residentBefore = Self.residentKilobytes()
        switch load(path, probe: true) {
        case .failure(let refusal):
            let remedy = refusal.remedy + (previous == nil ? "" : "; the previous build keeps serving")
            let error = PluginLoadError(path: path, reason: refusal.reason, remedy: remedy)
            logger.error("\(error.description)")
            return .failed(path: path, error: error.description)
        case .success(let generation):
            guard let previous else { return .added(generation) }
            retiring.append(previous)
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            return .reloaded(
                generation, previous: previous, milliseconds: milliseconds,
                residentKilobytesDelta: Self.residentKilobytes() - residentBefore)
        }
    }

    // MARK: Private

    private var orderedGenerations: [Generation] {
        let order = Dictionary(uniqueKeysWithValues: directories.enumerated().map { ($1, $0) })
        return generations.values.sorted { a, b in
            let da = order[(a.sourcePath as NSString).deletingLastPathComponent] ?? .max
            let db = order[(b.sourcePath as NSString).deletingLastPathComponent] ?? .max
            return da != db ? da < db : a.sourcePath < b.sourcePath
        }
    }

    /// Copies `path` (and its manifest) to a new name in the staging folder, so the watched file is never
    /// loaded where a compiler may be writing it, and every load is a new image with fresh static state (even
    /// when a build identical to an earlier one comes back). Returns the copy and its SHA-256 (`sha256` when
    /// the caller has it already, worked out off the main thread).
    package func stage(
        _ path: String, sha256 known: String? = nil
    ) -> Result<(path: String, sha256: String), PluginLoadError> {
        guard let stagingDirectory else { return .success((path, "")) }
        // The loader makes the trust and manifest checks again, on the staged copy and its manifest.
        if let refusal = PluginTrust.check(path) { return .failure(refusal) }
        guard let hash = known ?? (try? PluginManifest.sha256(ofFile: path)) else {
            return .failure(PluginLoadError(path: path, reason: "cannot be read", remedy: "check its permissions"))
        }
        stagedCopies += 1
        let name = "\(stagedCopies)-\(hash.prefix(16))-\((path as NSString).lastPathComponent)"
        let staged = (stagingDirectory as NSString).appendingPathComponent(name)
        do {
            if !FileManager.default.fileExists(atPath: staged) {
                try PluginInstaller.atomicCopy(from: path, to: staged)
                let manifest = PluginManifest.path(forPlugin: path)
                if FileManager.default.fileExists(atPath: manifest) {
                    try PluginInstaller.atomicCopy(from: manifest, to: PluginManifest.path(forPlugin: staged))
                }
            }
        } catch {
            return .failure(
                PluginLoadError(
                    path: path, reason: "cannot be staged for loading (\(error.localizedDescription))",
                    remedy: "check free space in \(stagingDirectory)"))
        }
        return .success((staged, hash))
    }

    private func load(_ path: String, probe: Bool) -> Result<Generation, PluginLoadError> {
        var loadPath = path
        var digest: String?
        if stagingDirectory != nil {
            switch stage(path) {
            case .failure(let error): return .failure(error)
            case .success(let staged): (loadPath, digest) = (staged.path, staged.sha256)
            }
            if probe, let launcher {
                let status =
                    spareProbe?.inspect(file: loadPath) ?? PluginProbe.inspect(file: loadPath, launcher: launcher)
                if let error = status.loadError {
                    if let log = status.log { logger.notice("plugin \(path) said while loading: \(log)") }
                    return .failure(PluginLoadError(path: path, reason: error.reason, remedy: error.remedy))
                }
            }
        }
        let loader = PluginLoader(logger: logger)
        switch loader.load(file: loadPath) {
        case .failure(let error):
            return .failure(PluginLoadError(path: path, reason: error.reason, remedy: error.remedy))
        case .success(let plugin):
            counter += 1
            let generation = Generation(plugin: plugin, sourcePath: path, sha256: digest, number: counter)
            generations[path] = generation
            return .success(generation)
        }
    }

    /// Generations replaced or removed by ``fileChanged(_:)``, waiting for ``retireReplaced()``.
    private var retiring: [Generation] = []

    /// Gives every generation that a file change replaced or removed its `shutdown`. Call it once their live
    /// instances are gone (replaced or destroyed): the ABI promises `destroy_instance` before `shutdown`.
    package func retireReplaced() {
        let done = retiring
        retiring.removeAll()
        for generation in done { generation.plugin.shutdown() }
    }

    /// Resident set size of this process, from /proc/self/statm.
    static func residentKilobytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }
}

/// Stands in when a plugin vanished between registration and use: accepts messages, does nothing.
final class UnavailableComponent: BridgeComponent {
    nonisolated override class var name: String { "unavailable" }
}
