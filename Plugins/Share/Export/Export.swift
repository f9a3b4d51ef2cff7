import StradaPluginSDK
import StradaShareComponent

@_cdecl("strada_plugin_entry_v1")
public func stradaPluginEntry(host: UnsafeRawPointer?, plugin: UnsafeMutableRawPointer?) -> Int32 {
    StradaPlugin(id: "dev.strada.share", version: "1.0.0", components: [ShareComponent.self]).export(
        host: host, into: plugin)
}
