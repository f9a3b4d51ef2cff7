import StradaPageComponent
import StradaPluginSDK

@_cdecl("strada_plugin_entry_v1")
public func stradaPluginEntry(host: UnsafeRawPointer?, plugin: UnsafeMutableRawPointer?) -> Int32 {
    StradaPlugin(id: "dev.strada.page", version: "1.0.0", components: [PageComponent.self]).export(
        host: host, into: plugin)
}
