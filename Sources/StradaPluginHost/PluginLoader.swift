import CStradaPlugin
import Foundation
package import Logging
import StradaABI
package import StradaCore
import Synchronization

/// A plugin that loaded: its description, where it came from, and the components it provides.
package struct LoadedPlugin: Sendable {
    package let path: String
    package let id: String
    package let version: String
    package let componentNames: [String]
    /// The ABI version the plugin was built against, "1.0".
    package let abi: String
    /// The manifest next to the file, if there is one.
    package let manifest: PluginManifest?
    let descriptor: PluginDescriptor
    /// The `dlopen` handle's address (the image stays loaded for the life of the process).
    let handle: UInt

    /// Calls the manifest action `name` with `arguments` (see ``PluginAction``). Main thread.
    @MainActor
    package func call(action name: String, arguments: [JSON]) throws(MalformedMessage) -> JSON {
        guard let action = manifest?.actions?.first(where: { $0.name == name }) else {
            let known = manifest?.actions?.map(\.name) ?? []
            throw MalformedMessage(
                reason: "plugin \(id) declares no action \"\(name)\""
                    + (known.isEmpty
                        ? " (its manifest lists no actions)" : "; it has: \(known.joined(separator: ", "))"))
        }
        return try descriptor.crash.calling("an action") { () throws(MalformedMessage) in
            try action.call(handle: UnsafeMutableRawPointer(bitPattern: handle)!, arguments: arguments)
        }
    }

    /// Tells the plugin it is no longer used (its `shutdown`, if any). It stays loaded.
    @MainActor
    package func shutdown() {
        let table = descriptor.table
        descriptor.crash.calling("shutdown") { table.shutdown?(table.plugin_context) }
    }

    /// Registrations for the components this plugin provides (host-side proxies).
    @MainActor
    package var registrations: [ComponentRegistration] {
        componentNames.map { name in
            ComponentRegistration(name: name) { [descriptor, id, manifest] destination, delegate in
                PluginComponent(
                    name: name, descriptor: descriptor, grant: PluginGrants.grant(for: id, manifest: manifest),
                    destination: destination, delegate: delegate)
            }
        }
    }
}

/// The plugin's `strada_plugin_v1`, valid for the life of the process (plugins are never unloaded).
struct PluginDescriptor: @unchecked Sendable {  // points at immutable plugin-owned data
    let pointer: UnsafePointer<strada_plugin_v1>
    let pluginID: String
    /// What the host's crash handler says of this plugin; every call into its code is made through it.
    let crash: CrashSlotPlugin
    var table: strada_plugin_v1 { pointer.pointee }
}

/// The outcome of loading a plugins directory: what loaded, and one error per file that did not.
package struct PluginLoadReport: Sendable {
    package var plugins: [LoadedPlugin] = []
    package var errors: [PluginLoadError] = []
    /// Component names claimed by more than one plugin: the first plugin (by file name) keeps the name.
    package var conflicts: [String] = []
    /// Plugins running in worker processes (`--isolate`).
    @MainActor package var isolated: [IsolatedPlugin] = []

    package init() {}

    /// Every loaded component name, once.
    package var componentNames: [String] { plugins.flatMap(\.componentNames).uniqued() }
}

/// Loads component plugins with `dlopen` through the ABI 1 entry point. Never unloads them: Swift images
/// cannot be `dlclose`d safely (the runtime keeps pointers into them).
@MainActor
package final class PluginLoader {
    private let logger: Logger

    package init(logger: Logger) {
        self.logger = logger
    }

    /// Loads every plugin file in `directories` (in order; files sorted by name). Hidden files and
    /// `.json` manifests are skipped; every other regular file must be a plugin or gets an error.
    package func load(directories: [String]) -> PluginLoadReport {
        Self.walk(directories, logger: logger) { load(file: $0) }
    }

    /// The one directory walk: candidates in order, `load` for each, one error per refused file, the
    /// first plugin (directories in order, files by name) keeping a component name claimed twice.
    static func walk(_ directories: [String], logger: Logger, load: (String) -> Result<LoadedPlugin, PluginLoadError>)
        -> PluginLoadReport
    {
        var report = PluginLoadReport()
        var owners: [String: String] = [:]
        for directory in directories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                report.errors.append(.unreadableDirectory(directory))
                continue
            }
            for path in PluginProbe.candidates(in: directory) {
                switch load(path) {
                case .success(let plugin):
                    for component in plugin.componentNames {
                        if let owner = owners[component] {
                            let line = conflictWarning(component: component, owner: owner, other: plugin.path)
                            logger.warning("\(line)")
                            report.conflicts.append(component)
                        } else {
                            owners[component] = plugin.path
                        }
                    }
                    report.plugins.append(plugin)
                case .failure(let error):
                    report.errors.append(error)
                }
            }
        }
        for error in report.errors { logger.error("\(error.description)") }
        return report
    }

    /// Loads one plugin file: trust and manifest checks first (no plugin code runs before they pass), then
    /// `dlopen`, the entry point, and validation of what the plugin declares. `source`: the file a crash in its
    /// code is recorded against (the watched file when `file` is a staged copy of it; by default `file`).
    package func load(file: String, source: String? = nil) -> Result<LoadedPlugin, PluginLoadError> {
        let path = Self.absolutePath(file)
        if let refusal = PluginTrust.check(path) ?? PluginSignatures.check(path) { return .failure(refusal) }
        let manifest: PluginManifest?
        switch Self.readManifest(forPlugin: path) {
        case .success(let read): manifest = read
        case .failure(let error): return .failure(error)
        }
        if let refusal = manifest.flatMap({ Self.abiRefusal(of: $0, path: path) }) { return .failure(refusal) }
        guard Self.hasELFHeader(path) else { return .failure(.notSharedLibrary(path)) }
        if let expected = manifest?.sha256 {
            let actual = (try? PluginManifest.sha256(ofFile: path)) ?? ""
            guard actual == expected else {
                return .failure(.checksumMismatch(path, expected: expected, actual: actual))
            }
        }
        let result = Self.open(path, manifest: manifest, source: source.map(Self.absolutePath) ?? path)
        if case .success(let plugin) = result, let manifest {
            if let id = manifest.id, id != plugin.id {
                logger.warning(
                    "plugin \(path): its manifest says id \(id), the plugin says \(plugin.id); using \(plugin.id)")
            }
            if let components = manifest.components, components != plugin.componentNames {
                let line =
                    "plugin \(path): its manifest lists components \(components), "
                    + "the plugin declares \(plugin.componentNames); using the plugin's"
                logger.warning("\(line)")
            }
        }
        return result
    }

    /// Why a plugin whose manifest is `manifest` cannot load in this host because of the ABI the manifest names
    /// (another major, a newer minor), or `nil`.
    nonisolated static func abiRefusal(of manifest: PluginManifest, path: String) -> PluginLoadError? {
        guard let abi = manifest.abi.flatMap(PluginManifest.parseABI) else { return nil }
        if abi.major != Int(STRADA_PLUGIN_ABI_MAJOR) { return .otherMajor(path, abi.major) }
        if abi.minor > Int(STRADA_PLUGIN_ABI_MINOR) {
            return .newerMinor(path, UInt32(abi.minor), host: UInt32(STRADA_PLUGIN_ABI_MINOR))
        }
        return nil
    }

    /// The warning when two plugins provide component `name`: the first (`owner`) keeps it.
    nonisolated package static func conflictWarning(component name: String, owner: String, other: String) -> String {
        """
        component "\(name)" is provided by \(owner) and \(other); using \(owner) \
        — remove one of the two files from the plugins folders, or rename the component in one
        """
    }

    /// `path` made absolute against the current folder: `dlopen` searches the library path for a name
    /// without a slash, so `plugin inspect libecho.so` must become `/cwd/libecho.so` first.
    nonisolated static func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    }

    nonisolated static func readManifest(forPlugin path: String) -> Result<PluginManifest?, PluginLoadError> {
        let manifestPath = PluginManifest.path(forPlugin: path)
        guard manifestPath != path else { return .success(nil) }
        // One open and read, no existence check first: at start-up every plugin's manifest is read.
        let descriptor = Glibc.open(manifestPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return .success(nil) }
            let reason = String(cString: strerror(errno))
            return .failure(.manifestInvalid(path, manifestPath, "it cannot be read (\(reason))"))
        }
        defer { close(descriptor) }
        // Plain reads, not FileHandle's: its reading and closing were ~13 ms of a start-up with 1,000 plugins.
        // A short read of a regular file is its end: a manifest (under 16 KiB) takes one read, not a second one
        // that returns 0 (each read ~7 µs on the 2-core VM, a thousand at start-up).
        var bytes: [UInt8] = []
        var count = 0
        repeat {
            // Read into uninitialised storage: no 16 KiB cleared for each of a thousand manifests.
            let part = [UInt8](unsafeUninitializedCapacity: 16_384) { buffer, initialized in
                count = Glibc.read(descriptor, buffer.baseAddress, 16_384)
                initialized = max(count, 0)
            }
            if bytes.isEmpty { bytes = part } else { bytes += part }
        } while count == 16_384 || (count < 0 && errno == EINTR)
        guard count >= 0 else {
            let reason = String(cString: strerror(errno))
            return .failure(.manifestInvalid(path, manifestPath, "it cannot be read (\(reason))"))
        }
        // Checked as the ABI's strings are (`strada_string.string`: decoded, then compared with its bytes), not with
        // `String(validating:)`, ~7,000 instructions for 100 bytes (docs/engine.md).
        let text = bytes.withUnsafeBytes { raw in
            strada_string(data: raw.baseAddress?.assumingMemoryBound(to: CChar.self), length: UInt64(raw.count)).string
        }
        guard let text else {
            return .failure(.manifestInvalid(path, manifestPath, "it cannot be read (not UTF-8 text)"))
        }
        do throws(MalformedMessage) {
            return .success(try PluginManifest(json: text))
        } catch {
            return .failure(.manifestInvalid(path, manifestPath, error.reason))
        }
    }

    private static func open(
        _ path: String, manifest: PluginManifest?, source: String
    ) -> Result<LoadedPlugin, PluginLoadError> {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            let detail = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            return .failure(.dlopenFailed(path, detail))
        }
        guard let symbol = dlsym(handle, STRADA_PLUGIN_ENTRY_V1) else {
            for major in 2...9 where dlsym(handle, "strada_plugin_entry_v\(major)") != nil {
                return .failure(.otherMajor(path, major))
            }
            return .failure(.missingEntry(path))
        }
        let entry = unsafeBitCast(symbol, to: strada_plugin_entry_v1_fn.self)
        let host = HostAPI.table(forPluginAt: path)
        var described: UnsafePointer<strada_plugin_v1>?
        let status = CrashSlotPlugin(name: "plugin \(source)", source: source).calling("its entry point") {
            entry(host, &described)
        }
        guard status == STRADA_OK else { return .failure(.entryFailed(path, status)) }
        return Self.validate(
            described, path: path, manifest: manifest, handle: UInt(bitPattern: handle), source: source)
    }

    static func hasELFHeader(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        let magic = (try? file.read(upToCount: 4)) ?? Data()
        return magic == Data([0x7F, 0x45, 0x4C, 0x46])
    }

    static func validate(
        _ described: UnsafePointer<strada_plugin_v1>?, path: String, manifest: PluginManifest?, handle: UInt,
        source: String
    ) -> Result<LoadedPlugin, PluginLoadError> {
        guard let described else {
            return .failure(.invalidDescription(path, "the entry point returned success but no description"))
        }
        let table = described.pointee
        // ABI 1.0's size is the least a plugin may declare; later 1.x plugins are larger and the host reads
        // only the fields it knows.
        guard table.struct_size >= STRADA_PLUGIN_V1_MIN_SIZE_1_0 else {
            return .failure(
                .invalidDescription(
                    path, "struct_size \(table.struct_size) is smaller than ABI 1.0's \(STRADA_PLUGIN_V1_MIN_SIZE_1_0)")
            )
        }
        guard table.abi_major == STRADA_PLUGIN_ABI_MAJOR else {
            return .failure(.otherMajor(path, Int(table.abi_major)))
        }
        guard table.abi_minor <= STRADA_PLUGIN_ABI_MINOR else {
            return .failure(.newerMinor(path, table.abi_minor, host: UInt32(STRADA_PLUGIN_ABI_MINOR)))
        }
        guard let idPointer = table.plugin_id, let id = String(validatingCString: idPointer), !id.isEmpty else {
            return .failure(.invalidDescription(path, "plugin_id is missing"))
        }
        if let problem = PluginNames.problem(pluginID: id) { return .failure(.invalidDescription(path, problem)) }
        var version = "0.0.0"
        if let versionPointer = table.plugin_version {
            guard let declared = String(validatingCString: versionPointer) else {
                return .failure(.invalidDescription(path, "plugin_version is not UTF-8"))
            }
            if let problem = PluginNames.problem(version: declared) {
                return .failure(.invalidDescription(path, problem))
            }
            version = declared
        }
        guard table.component_count > 0, let names = table.component_names else {
            return .failure(.invalidDescription(path, "it declares no components"))
        }
        var componentNames: [String] = []
        for index in 0..<Int(table.component_count) {
            guard let namePointer = names[index], let name = String(validatingCString: namePointer), !name.isEmpty
            else {
                return .failure(.invalidDescription(path, "component name \(index) is missing or not UTF-8"))
            }
            if let problem = PluginNames.problem(componentName: name) {
                return .failure(.invalidDescription(path, problem))
            }
            componentNames.append(name)
        }
        guard table.create_instance != nil, table.receive != nil, table.destroy_instance != nil else {
            return .failure(.invalidDescription(path, "create_instance, receive and destroy_instance are required"))
        }
        return .success(
            LoadedPlugin(
                path: path, id: id, version: version, componentNames: componentNames,
                abi: "\(table.abi_major).\(table.abi_minor)", manifest: manifest,
                descriptor: PluginDescriptor(
                    pointer: described, pluginID: id,
                    crash: CrashSlotPlugin(name: "plugin \(id) (\(source))", source: source)),
                handle: handle))
    }
}
