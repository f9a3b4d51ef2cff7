import CStradaPlugin
import Foundation
import Logging
import StradaABI
public import StradaCore

/// Turns `BridgeComponent` subclasses into a Strada plugin. Declare the export once:
///
/// ```swift
/// @_cdecl("strada_plugin_entry_v1")
/// public func stradaPluginEntry(host: UnsafeRawPointer?, plugin: UnsafeMutableRawPointer?) -> Int32 {
///     StradaPlugin(id: "dev.strada.form", version: "1.0.0", components: [FormComponent.self])
///         .export(host: host, into: plugin)
/// }
/// ```
///
/// The SDK then applies the host's codec settings to this plugin's `Strada.config`, routes its logging to
/// the host, and adapts each component to the C ABI. No Swift type crosses the boundary.
public struct StradaPlugin: Sendable {
    public let id: String
    public let version: String
    public let components: [BridgeComponent.Type]

    public init(id: String, version: String, components: [BridgeComponent.Type]) {
        self.id = id
        self.version = version
        self.components = components
    }

    /// Implements the entry point: validates the host table, configures the plugin and writes its
    /// description to `plugin` (a `const strada_plugin_v1 **`). Returns a `strada_status`.
    public func export(host: UnsafeRawPointer?, into plugin: UnsafeMutableRawPointer?) -> Int32 {
        guard let host, let plugin else { return STRADA_ERR_INVALID_ARGUMENT }
        let table = host.assumingMemoryBound(to: strada_host_api_v1.self)
        // This SDK uses nothing newer than ABI 1.0's host table, so any 1.x host will do.
        guard table.pointee.abi_major == STRADA_PLUGIN_ABI_MAJOR,
            table.pointee.struct_size >= STRADA_HOST_API_V1_MIN_SIZE_1_0
        else { return STRADA_ERR_INVALID_ARGUMENT }
        guard Thread.isMainThread else {
            withStradaString("\(id): the entry point must be called on the host's main thread") { text in
                table.pointee.log(table, STRADA_LOG_ERROR, text)
            }
            return STRADA_ERR_WRONG_THREAD
        }
        nonisolated(unsafe) let hostTable = table  // only used on the main thread, checked above
        nonisolated(unsafe) let output = plugin
        return MainActor.assumeIsolated {
            let runtime = PluginRuntime(plugin: self, host: hostTable)
            output.assumingMemoryBound(to: UnsafePointer<strada_plugin_v1>?.self).pointee = runtime.descriptor
            return STRADA_OK
        }
    }
}
