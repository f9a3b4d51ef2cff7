import StradaPluginSDK
import StradaSearchComponent

@_cdecl("strada_plugin_entry_v1")
public func stradaPluginEntry(host: UnsafeRawPointer?, plugin: UnsafeMutableRawPointer?) -> Int32 {
    StradaPlugin(id: "dev.strada.search", version: "1.0.0", components: [SearchComponent.self]).export(
        host: host, into: plugin)
}
