import Foundation
package import Logging
package import StradaCore

/// The plugins a host serves from, by generation, with hot reload: a changed plugin file is copied to a
/// unique staging path (never `dlopen`ed where it is watched), validated in a probe child process, loaded,
/// and swapped in; a failing new build leaves the old generation serving. Old generations get `shutdown`
/// but are never unloaded (Swift images cannot be `dlclose`d).
///
/// Plugins are opened lazily: at start every file is *declared* (its components announced, from the plugin
/// manifest cache or its installed manifest, or from a probe child when neither says), and a declared plugin is
/// opened only when a page first registers one of its components, or one of its actions or native screens is
/// asked for (see ``DeclaredPlugin``).
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
        /// `previous` is `nil` when the file's plugin was declared but not opened yet.
        case reloaded(Generation, previous: Generation?, milliseconds: Double, residentKilobytesDelta: Int)
        case failed(path: String, error: String)
        case removed(path: String, components: [String])
    }

    private let directories: [String]
    private let logger: Logger
    private let stagingDirectory: String?
    private var stagedCopies = 0
    private var generations: [String: Generation] = [:]
    /// Plugins announced but not opened yet, by file.
    private var declared: [String: DeclaredPlugin] = [:]
    /// Declared plugins that failed to open when first needed: reported once, not tried again until the file
    /// changes.
    private var broken: Set<String> = []
    private var cache = PluginManifestCache()
    private var counter = 0

    /// A declared plugin failed to open when first needed (its one error line is logged already).
    package var onOpenFailed: (@MainActor (PluginLoadError) -> Void)?

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

    /// Declares every plugin in the directories (directories in order, files by name), opening none that
    /// something declares: the plugin manifest cache (the file loaded in a probe before, unchanged since) or an
    /// installed manifest with an `id` and `components`. Every other file is probed in a child process (several
    /// at a time; what loads is cached): one that crashes or hangs there is refused with one line and never
    /// `dlopen`ed here, so it cannot take the host down at start-up. A file a probe refused is loaded here, so its
    /// refusal (and what it logged) is the host's own. The first plugin keeps a component name claimed twice.
    package func loadAll() -> PluginLoadReport {
        var report = PluginLoadReport()
        var declarations: [(path: String, declaration: DeclaredPlugin.Declaration)] = []
        for directory in directories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                declarations.append((directory, .refused(.unreadableDirectory(directory))))
                continue
            }
            for path in PluginProbe.candidates(in: directory) {
                declarations.append((path, DeclaredPlugin.declaration(of: path, cache: cache)))
            }
        }
        let unknown = declarations.filter { $0.declaration == .probe }.map(\.path)
        var probed: [String: PluginStatus] = [:]
        if let launcher {
            let statuses = PluginProbe.inspect(files: unknown, launcher: launcher)
            cache.remember(statuses)
            probed = Dictionary(zip(unknown, statuses)) { first, _ in first }
        }
        var owners: [String: String] = [:]
        for (path, declaration) in declarations {
            let names: [String]
            switch declaration {
            case .refused(let error):
                report.errors.append(error)
                continue
            case .declared(let plugin):
                declared[path] = plugin
                names = plugin.componentNames
            case .probe:
                switch probed[path] {
                case let status? where status.state == .loaded && status.id != nil:
                    let plugin = DeclaredPlugin(
                        path: path, id: status.id ?? "", version: status.version ?? "0.0.0",
                        componentNames: status.components, probed: true)
                    declared[path] = plugin
                    names = plugin.componentNames
                case let status? where status.state == .crashed:
                    if let log = status.log { logger.notice("plugin \(path) said before it failed: \(log)") }
                    report.errors.append(
                        PluginLoadError(
                            path: path, reason: status.reason ?? "failed to load",
                            remedy: status.remedy ?? "fix the plugin or remove it"))
                    continue
                default:
                    // Refused in the probe, or no probes: loaded here, so the refusal and its log are the host's.
                    switch load(path, probe: false) {
                    case .failure(let error):
                        report.errors.append(error)
                        continue
                    case .success(let generation):
                        report.plugins.append(generation.plugin)
                        names = generation.plugin.componentNames
                    }
                }
            }
            for component in names {
                guard let owner = owners[component] else {
                    owners[component] = path
                    continue
                }
                logger.warning("\(PluginLoader.conflictWarning(component: component, owner: owner, other: path))")
                report.conflicts.append(component)
            }
        }
        for error in report.errors { logger.error("\(error.description)") }
        return report
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

    /// Component names served now, first owner wins (directories in order, files by name), whether their plugin
    /// is open yet or not.
    package var componentNames: [String] { orderedPaths.flatMap(componentNames(of:)).uniqued() }

    /// Registrations that resolve the current generation when a page creates the component — opening a declared
    /// plugin the first time one of its components is made.
    package var registrations: [ComponentRegistration] {
        componentNames.map { name in
            ComponentRegistration(name: name) { [weak self] destination, delegate in
                guard let self, let path = ownerPath(of: name), let plugin = opened(path, for: "component \(name)"),
                    let registration = plugin.registrations.first(where: { $0.name == name })
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

    /// The current generation of every plugin opened so far, in load order.
    package var plugins: [LoadedPlugin] { orderedGenerations.map(\.plugin) }

    /// What every plugin provides, in order — opened or only declared (a declared one says `loaded` too: it is
    /// known to load, or declared by its manifest).
    package var statuses: [PluginStatus] {
        orderedPaths.compactMap { generations[$0].map { PluginStatus($0.plugin) } ?? declared[$0]?.status }
    }

    /// The current generation of the plugin with `id`, opening it if it is only declared.
    package func plugin(id: String) -> LoadedPlugin? {
        if let loaded = orderedGenerations.first(where: { $0.plugin.id == id }) { return loaded.plugin }
        guard let path = orderedPaths.first(where: { declared[$0]?.id == id }) else { return nil }
        return opened(path, for: "its action")
    }

    /// The file of the plugin that serves component `name` (opened or declared).
    package func ownerPath(of name: String) -> String? {
        orderedPaths.first { componentNames(of: $0).contains(name) }
    }

    /// The plugin of file `path`, opened now if it was only declared (`why`: what needs it, for the log line);
    /// `nil` when there is none or it fails to open (said once, in one line, and to ``onOpenFailed``).
    package func opened(_ path: String, for why: String) -> LoadedPlugin? {
        if let generation = generations[path] { return generation.plugin }
        guard let plugin = declared[path], !broken.contains(path) else { return nil }
        let started = DispatchTime.now().uptimeNanoseconds
        if !plugin.probed, let launcher {
            // Never seen loading: a probe child loads it first, so a crash there cannot take the host down.
            let status = spareProbe?.inspect(file: path) ?? PluginProbe.inspect(file: path, launcher: launcher)
            if status.state == .crashed, let error = status.loadError {
                return openFailed(PluginLoadError(path: path, reason: error.reason, remedy: error.remedy))
            }
            cache.remember([status])
        }
        switch load(path, probe: false) {
        case .failure(let error): return openFailed(error)
        case .success(let generation):
            declared[path] = nil
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            logger.info(
                """
                plugin \(path) loaded on first use (\(why)): \(generation.plugin.id) in \
                \(String(format: "%.1f", milliseconds)) ms
                """)
            return generation.plugin
        }
    }

    private func openFailed(_ error: PluginLoadError) -> LoadedPlugin? {
        broken.insert(error.path)
        logger.error("\(error.description)")
        onOpenFailed?(error)
        return nil
    }

    /// Handles a change of `path` reported by the watcher.
    package func fileChanged(_ path: String) -> Change {
        guard !path.hasSuffix(".json") else {
            // A manifest changed: re-check the plugin it belongs to.
            let plugin = (path as NSString).deletingPathExtension + ".so"
            return FileManager.default.fileExists(atPath: plugin) ? fileChanged(plugin) : .unchanged(path: path)
        }
        broken.remove(path)
        guard FileManager.default.fileExists(atPath: path) else {
            if let gone = declared.removeValue(forKey: path) {
                return .removed(path: path, components: gone.componentNames)
            }
            guard let gone = generations.removeValue(forKey: path) else { return .unchanged(path: path) }
            retiring.append(gone)
            return .removed(path: path, components: gone.plugin.componentNames)
        }
        let previous = generations[path]
        let wasDeclared = declared[path] != nil
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
            // A declared plugin's new build is opened now (validated in a probe like any rebuild) and serves.
            declared[path] = nil
            guard previous != nil || wasDeclared else { return .added(generation) }
            if let previous { retiring.append(previous) }
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            return .reloaded(
                generation, previous: previous, milliseconds: milliseconds,
                residentKilobytesDelta: Self.residentKilobytes() - residentBefore)
        }
    }

    // MARK: Private

    private var orderedGenerations: [Generation] { orderedPaths.compactMap { generations[$0] } }

    /// Every plugin file, opened or declared: directories in order, files by name.
    private var orderedPaths: [String] {
        let order = Dictionary(directories.enumerated().map { ($1, $0) }) { first, _ in first }
        return Set(generations.keys).union(declared.keys).sorted { a, b in
            let da = order[(a as NSString).deletingLastPathComponent] ?? .max
            let db = order[(b as NSString).deletingLastPathComponent] ?? .max
            return da != db ? da < db : a < b
        }
    }

    private func componentNames(of path: String) -> [String] {
        generations[path]?.plugin.componentNames ?? declared[path]?.componentNames ?? []
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
