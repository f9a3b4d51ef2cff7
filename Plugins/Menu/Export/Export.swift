import StradaMenuComponent
import StradaPluginSDK

@_cdecl("strada_plugin_entry_v1")
public func stradaPluginEntry(host: UnsafeRawPointer?, plugin: UnsafeMutableRawPointer?) -> Int32 {
    StradaPlugin(id: "dev.strada.menu", version: "1.0.0", components: [MenuComponent.self]).export(
        host: host, into: plugin)
}
