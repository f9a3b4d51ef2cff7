import StradaAlertComponent
import StradaPluginSDK

@_cdecl("strada_plugin_entry_v1")
public func stradaPluginEntry(host: UnsafeRawPointer?, plugin: UnsafeMutableRawPointer?) -> Int32 {
    StradaPlugin(id: "dev.strada.alert", version: "1.0.0", components: [AlertComponent.self]).export(
        host: host, into: plugin)
}
