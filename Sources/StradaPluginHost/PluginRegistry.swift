import Foundation
package import Logging
package import StradaCore

/// The plugins a host serves from its own process, one ``InProcessPlugin`` per file, with what hot reload needs:
/// a changed plugin file is copied to a unique staging path (never `dlopen`ed where it is watched), validated in a
/// probe child process, loaded, and swapped in; a failing new build leaves the old generation serving.
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

    private let directories: [String]
    private let stagingDirectory: String?
    private var stagedCopies = 0
    private var entries: [String: InProcessPlugin] = [:]
    /// Every plugin, opened or declared, in load order: directories in order, files by name.
    private var ordered: [InProcessPlugin] = []
    var cache: PluginManifestCache
    let logger: Logger

    /// A declared plugin failed to open when first needed (its one error line is logged already).
    package var onOpenFailed: (@MainActor (PluginLoadError) -> Void)?
    /// A file first seen at start-up whose probe answered after start-up was done (``loadAll(except:)``): the
    /// plugin, now declared, or why it does not load (its one line is logged already).
    package var onLateProbe: (@MainActor (Result<any ReloadablePlugin, PluginLoadError>) -> Void)?
    /// A plugin's new build serves: the page's instances of these components are to be replaced by new ones;
    /// returns those replaced.
    package var onSwap: (@MainActor (_ components: [String]) -> [String])?

    let launcher: PluginProcessLauncher?
    /// With staging and a launcher: the probe child started ahead of time for the next reload.
    private var spareProbe: SpareProbe?
    private(set) var stopped = false

    /// `staging`: copy each plugin to a private folder before loading it (needed to reload; `run --watch`),
    /// validating each new build in a probe child started by `launcher`. `cache`: the plugin manifest cache (this
    /// user's by default).
    package init(
        directories: [String], staging: Bool, launcher: PluginProcessLauncher? = nil, logger: Logger,
        cache: PluginManifestCache = PluginManifestCache()
    ) {
        self.directories = directories
        self.cache = cache
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
    /// installed manifest with an `id` and `components`; a file the cache knows failing is refused at once. Every
    /// other file is probed in a child process (several at a time; what loads, and what fails for good, is
    /// cached): one that crashes or hangs there is refused with one line and never `dlopen`ed here, so it cannot
    /// take the host down at start-up. A file a probe refused is loaded here, so its refusal (and what it logged)
    /// is the host's own. Start-up waits for the probes at most ``PluginProbe/startUpGrace``: a file whose probe
    /// answers later is not in the report, and is added (or reported) then (``onLateProbe``). The first plugin
    /// keeps a component name claimed twice. Files in `elsewhere` (those that run in a worker) are left to
    /// ``IsolatedPlugins``.
    package func loadAll(except elsewhere: Set<String> = []) -> PluginLoadReport {
        var report = PluginLoadReport()
        var declarations: [(path: String, declaration: DeclaredPlugin.Declaration)] = []
        for directory in directories {
            guard let folder = PluginFolder(directory) else {
                declarations.append((directory, .refused(.unreadableDirectory(directory))))
                continue
            }
            for path in PluginProbe.candidateNames(in: directory) where !elsewhere.contains(path) {
                guard let declaration = folder.declaration(of: path, cache: cache) else { continue }
                declarations.append((path, declaration))
            }
        }
        let unknown = declarations.filter { $0.declaration == .probe }.map(\.path)
        var probed: [String: PluginStatus] = [:]
        var late: Set<String> = []
        if let launcher, !unknown.isEmpty {
            // Never seen before: probed at once, but start-up waits for them only ``PluginProbe/startUpGrace``;
            // what answers later is added then (``probeAnsweredLate(_:_:)``), as a file added while the host runs.
            let answered = ProbeBatch(files: unknown, launcher: launcher).answers(within: PluginProbe.startUpGrace) {
                [weak self] index, status in
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { self?.probeAnsweredLate(unknown[index], status) }
                }
            }
            cache.remember(answered.sorted { $0.key < $1.key }.map(\.value))
            for (index, status) in answered { probed[unknown[index]] = status }
            late = Set(unknown).subtracting(probed.keys)
        }
        var owners: [String: String] = [:]
        for (path, declaration) in declarations {
            let names: [String]
            switch declaration {
            case .refused(let error), .failedBefore(let error):
                report.errors.append(error)
                continue
            case .declared(let plugin):
                append(InProcessPlugin(path: path, state: .declared(plugin), registry: self))
                names = plugin.componentNames
            case .probe:
                guard !late.contains(path) else { continue }
                switch plugin(probed: path, probed[path]) {
                case .failure(let error):
                    report.errors.append(error)
                    continue
                case .success(let plugin):
                    append(plugin)
                    if let generation = plugin.generation { report.plugins.append(generation.plugin) }
                    names = plugin.componentNames
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

    /// How each of `paths` (files that run in a worker, see ``HostPlugins/plan(_:rules:)``) is declared, by the rule
    /// in-process plugins follow (``DeclaredPlugin/declaration(of:cached:manifest:trust:)``), from this host's
    /// plugin manifest cache: a declared one gets its worker only when first needed.
    package func declarations(ofIsolated paths: [String]) -> [DeclaredPlugin.Declaration] {
        var folders: [String: PluginFolder?] = [:]  // each folder stat'ed once; nil: it cannot be read
        return paths.map { path in
            let directory = (path as NSString).deletingLastPathComponent
            if folders[directory] == nil { folders[directory] = PluginFolder(directory) }
            // As in `loadAll`: a folder that cannot be read refuses its plugins.
            guard let folder = folders[directory] ?? nil else { return .refused(.unreadableDirectory(directory)) }
            return folder.declaration(of: path, cache: cache) ?? .probe
        }
    }

    /// Remembers in the plugin manifest cache that `status`'s file loaded in a child process (a worker's hello says
    /// what a probe's answer says), so the next start declares it without starting anything.
    package func rememberLoaded(_ status: PluginStatus) {
        cache.remember([status])
    }

    /// Remembers in the plugin manifest cache that `error`'s file failed to load in a child process (a first
    /// worker hung, crashed, or found it is no plugin), when only a new file can change that
    /// (``PluginLoadError/isPropertyOfTheFile``): the next start refuses it at once, without waiting again.
    package func rememberFailed(_ error: PluginLoadError) {
        guard error.isPropertyOfTheFile else { return }
        cache.remember([PluginStatus(error)])
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
    package var componentNames: [String] { ordered.flatMap(\.componentNames).uniqued() }

    /// Registrations that resolve the current generation when a page creates the component — opening a declared
    /// plugin the first time one of its components is made.
    package var registrations: [ComponentRegistration] {
        // Each owner's grant is made once per set of registrations (made again after every reload), not at every
        // page's announcement, from the manifest read when the plugin was declared (read again once opened).
        var grants: [String: PluginGrant] = [:]
        // The names and each one's owner from one pass in load order (the first plugin that serves it): asking
        // ``ownerPath(of:)`` per name walked every plugin for every name, ~100 ms with 1,000 plugins.
        var names: [String] = []
        var owners: [String: InProcessPlugin] = [:]
        for plugin in ordered {
            for name in plugin.componentNames where owners[name] == nil {
                owners[name] = plugin
                names.append(name)
            }
        }
        return names.map { name in
            let owner = owners[name]
            let pageCheck = owner.flatMap { owner in
                let grant =
                    grants[owner.path]
                    ?? PluginGrants.grant(
                        for: owner.id, manifest: owner.declaredManifest ?? PluginManifest(besidePlugin: owner.path))
                grants[owner.path] = grant
                return PluginGrants.pageCheck(of: name, plugin: owner.id, grant: grant)
            }
            return ComponentRegistration(name: name, pageCheck: pageCheck) { [weak self] destination, delegate in
                guard let self, let owner = ownerPath(of: name).flatMap({ entries[$0] }),
                    let plugin = owner.open(for: "component \(name)"),
                    let registration = plugin.registrations.first(where: { $0.name == name })
                else { return UnavailableComponent(destination: destination, delegate: delegate) }
                return registration.make(destination, delegate)
            }
        }
    }

    /// The host is stopping: every plugin gets its `shutdown`.
    package func shutdownAll() {
        for plugin in ordered { plugin.shutdown() }
        entries.removeAll()
        ordered.removeAll()
        spareProbe?.stop()
        spareProbe = nil
        stopped = true
        // The staged copies stay mapped while the process lives; their names can go now.
        if let stagingDirectory { try? FileManager.default.removeItem(atPath: stagingDirectory) }
    }

    /// The current generation of every plugin opened so far, in load order.
    package var plugins: [LoadedPlugin] { ordered.compactMap(\.generation?.plugin) }

    /// What every plugin provides, in order — opened or only declared (a declared one says `loaded` too: it is
    /// known to load, or declared by its manifest).
    package var statuses: [PluginStatus] { ordered.map(\.status) }

    /// The current generation of the plugin with `id`, opening it if it is only declared.
    package func plugin(id: String) -> LoadedPlugin? {
        ordered.first { $0.id == id }?.open(for: "its action")
    }

    /// The plugin of file `path`, opened now if it was only declared (`why`: what needs it, for the log line).
    package func opened(_ path: String, for why: String) -> LoadedPlugin? { entries[path]?.open(for: why) }

    /// The file of the plugin that serves component `name` (opened or declared).
    package func ownerPath(of name: String) -> String? {
        ordered.first { $0.componentNames.contains(name) }?.path
    }

    // MARK: What its plugins use

    /// A declared plugin failed to open: one line, and ``onOpenFailed``.
    func openFailed(_ error: PluginLoadError) {
        logger.error("\(error.description)")
        onOpenFailed?(error)
    }

    /// Probes `file` (the spare probe child when there is one) before it is opened here for the first time; the
    /// error when it crashed or hung there. What loads is cached.
    func crashInProbe(_ file: String) -> PluginLoadError? {
        guard let launcher else { return nil }
        let status = spareProbe?.inspect(file: file) ?? PluginProbe.inspect(file: file, launcher: launcher)
        // What failed for good is remembered too: the next start refuses the file without probing it again.
        cache.remember([status])
        guard status.state == .crashed, let error = status.loadError else { return nil }
        return PluginLoadError(path: file, reason: error.reason, remedy: error.remedy)
    }

    /// Validates a rebuilt plugin's staged copy `file` in a probe child (`source`: the watched file, named in the
    /// error): any refusal or crash there is the error.
    func validate(_ file: String, source: String) -> Result<Void, PluginLoadError> {
        guard let launcher else { return .success(()) }
        let status = spareProbe?.inspect(file: file) ?? PluginProbe.inspect(file: file, launcher: launcher)
        guard let error = status.loadError else { return .success(()) }
        if let log = status.log { logger.notice("plugin \(source) said while loading: \(log)") }
        return .failure(PluginLoadError(path: source, reason: error.reason, remedy: error.remedy))
    }

    /// Loads the plugin file `source` as generation `number`: a staged copy of it when the registry stages.
    func loadFromSource(_ source: String, number: Int) -> Result<Generation, PluginLoadError> {
        switch stage(source) {
        case .failure(let error): return .failure(error)
        case .success(let staged):
            return open(
                staged.path, source: source, sha256: stagingDirectory == nil ? nil : staged.sha256, number: number)
        }
    }

    /// `dlopen`s `file` (the watched file `source`, or a staged copy of it) as generation `number`.
    func open(_ file: String, source: String, sha256: String?, number: Int) -> Result<Generation, PluginLoadError> {
        switch PluginLoader(logger: logger).load(file: file, source: source) {
        case .failure(let error):
            return .failure(PluginLoadError(path: source, reason: error.reason, remedy: error.remedy))
        case .success(let plugin):
            return .success(Generation(plugin: plugin, sourcePath: source, sha256: sha256, number: number))
        }
    }

    // MARK: Private

    /// Adds a plugin ``loadAll()`` found: it walks the files in load order.
    func append(_ plugin: InProcessPlugin) {
        entries[plugin.path] = plugin
        ordered.append(plugin)
    }

    /// Adds a plugin file that appeared while the host runs, at its place in the load order (directories in
    /// order, files by name).
    func insert(_ plugin: InProcessPlugin) {
        ordered.removeAll { $0.path == plugin.path }
        entries[plugin.path] = plugin
        let directory = { (path: String) in
            self.directories.firstIndex(of: (path as NSString).deletingLastPathComponent) ?? .max
        }
        let place = ordered.firstIndex { other in
            (directory(other.path), other.path) > (directory(plugin.path), plugin.path)
        }
        ordered.insert(plugin, at: place ?? ordered.endIndex)
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

    /// Resident set size of this process, from /proc/self/statm.
    static func residentKilobytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }
}

extension PluginRegistry: ReloadablePluginSet {
    package var members: [any ReloadablePlugin] { ordered }

    /// A plugin file that appeared while the host runs is validated and opened at once (`file`: its staged copy).
    package func start(
        path: String, file: (path: String, sha256: String),
        completion: @escaping @MainActor (Result<any ReloadablePlugin, PluginLoadError>) -> Void
    ) {
        let result = validate(file.path, source: path).flatMap { _ in
            open(file.path, source: path, sha256: file.sha256, number: 1)
        }
        switch result {
        case .failure(let error): completion(.failure(error))
        case .success(let generation):
            let plugin = InProcessPlugin(path: path, state: .opened(generation), registry: self)
            insert(plugin)
            completion(.success(plugin))
        }
    }

    package func remove(_ plugin: any ReloadablePlugin) {
        guard entries[plugin.path] === plugin else { return }
        entries[plugin.path] = nil
        ordered.removeAll { $0 === plugin }
    }
}

/// Stands in when a plugin vanished between registration and use: accepts messages, does nothing.
final class UnavailableComponent: BridgeComponent {
    nonisolated override class var name: String { "unavailable" }
}
