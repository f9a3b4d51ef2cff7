import CStradaPlugin
import Foundation
public import Logging
public import StradaCore

/// A plugin that loaded: its description, where it came from, and the components it provides.
public struct LoadedPlugin: Sendable {
    public let path: String
    public let id: String
    public let version: String
    public let componentNames: [String]
    let descriptor: PluginDescriptor

    /// Registrations for the components this plugin provides (host-side proxies).
    @MainActor
    public var registrations: [ComponentRegistration] {
        componentNames.map { name in
            ComponentRegistration(name: name) { [descriptor] destination, delegate in
                PluginComponent(pluginComponentName: name, descriptor: descriptor, destination: destination, delegate: delegate)
            }
        }
    }
}

/// The plugin's `strada_plugin_v1`, valid for the life of the process (plugins are never unloaded).
struct PluginDescriptor: @unchecked Sendable {  // points at immutable plugin-owned data
    let pointer: UnsafePointer<strada_plugin_v1>
    let pluginID: String
    var table: strada_plugin_v1 { pointer.pointee }
}

/// The outcome of loading a plugins directory: what loaded, and one error per file that did not.
public struct PluginLoadReport: Sendable {
    public var plugins: [LoadedPlugin] = []
    public var errors: [PluginLoadError] = []
    /// Component names claimed by more than one plugin: the first plugin (by file name) keeps the name.
    public var conflicts: [String] = []

    /// Registrations for every loaded component, the winner first for any name claimed twice.
    @MainActor
    public var registrations: [ComponentRegistration] { plugins.flatMap(\.registrations) }

    /// Every loaded component name, once.
    public var componentNames: [String] {
        var seen = Set<String>()
        return plugins.flatMap(\.componentNames).filter { seen.insert($0).inserted }
    }
}

/// Loads component plugins with `dlopen` through the ABI 1 entry point. Never unloads them: Swift images
/// cannot be `dlclose`d safely (the runtime keeps pointers into them).
@MainActor
public final class PluginLoader {
    private let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    /// Loads every plugin file in `directories` (in order; files sorted by name). Hidden files and
    /// `.json` manifests are skipped; every other regular file must be a plugin or gets an error.
    public func load(directories: [String]) -> PluginLoadReport {
        var report = PluginLoadReport()
        var owners: [String: String] = [:]
        for directory in directories {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            } catch {
                report.errors.append(PluginLoadError(path: directory, reason: "cannot read the plugins directory", remedy: "create it or pass another --plugins"))
                continue
            }
            for name in names where !name.hasPrefix(".") && !name.hasSuffix(".json") {
                let path = (directory as NSString).appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                switch load(file: path) {
                case .success(let plugin):
                    for component in plugin.componentNames {
                        if let owner = owners[component] {
                            logger.warning("component \"\(component)\" is provided by \(owner) and \(plugin.path); using \(owner)")
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

    /// Loads one plugin file.
    public func load(file path: String) -> Result<LoadedPlugin, PluginLoadError> {
        guard Self.hasELFHeader(path) else { return .failure(.notSharedLibrary(path)) }
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
        let status = entry(host, &described)
        guard status == STRADA_OK else { return .failure(.entryFailed(path, status)) }
        return Self.validate(described, path: path)
    }

    static func hasELFHeader(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        let magic = (try? file.read(upToCount: 4)) ?? Data()
        return magic == Data([0x7F, 0x45, 0x4C, 0x46])
    }

    static func validate(_ described: UnsafePointer<strada_plugin_v1>?, path: String) -> Result<LoadedPlugin, PluginLoadError> {
        guard let described else { return .failure(.invalidDescription(path, "the entry point returned success but no description")) }
        let table = described.pointee
        guard table.struct_size >= UInt32(MemoryLayout<strada_plugin_v1>.size) else {
            return .failure(.invalidDescription(path, "struct_size \(table.struct_size) is smaller than ABI 1.0's \(MemoryLayout<strada_plugin_v1>.size)"))
        }
        guard table.abi_major == STRADA_PLUGIN_ABI_MAJOR else { return .failure(.otherMajor(path, Int(table.abi_major))) }
        guard table.abi_minor <= STRADA_PLUGIN_ABI_MINOR else {
            return .failure(.newerMinor(path, table.abi_minor, host: UInt32(STRADA_PLUGIN_ABI_MINOR)))
        }
        guard let idPointer = table.plugin_id, let id = String(validatingCString: idPointer), !id.isEmpty else {
            return .failure(.invalidDescription(path, "plugin_id is missing"))
        }
        let version = table.plugin_version.flatMap { String(validatingCString: $0) } ?? "0.0.0"
        guard table.component_count > 0, let names = table.component_names else {
            return .failure(.invalidDescription(path, "it declares no components"))
        }
        var componentNames: [String] = []
        for index in 0..<Int(table.component_count) {
            guard let namePointer = names[index], let name = String(validatingCString: namePointer), !name.isEmpty else {
                return .failure(.invalidDescription(path, "component name \(index) is missing or not UTF-8"))
            }
            componentNames.append(name)
        }
        guard table.create_instance != nil, table.receive != nil, table.destroy_instance != nil else {
            return .failure(.invalidDescription(path, "create_instance, receive and destroy_instance are required"))
        }
        return .success(LoadedPlugin(
            path: path, id: id, version: version, componentNames: componentNames,
            descriptor: PluginDescriptor(pointer: described, pluginID: id)))
    }
}
