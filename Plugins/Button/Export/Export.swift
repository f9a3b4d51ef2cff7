import StradaButtonComponent
import StradaPluginSDK

@_cdecl("strada_plugin_entry_v1")
public func stradaPluginEntry(host: UnsafeRawPointer?, plugin: UnsafeMutableRawPointer?) -> Int32 {
    StradaPlugin(id: "dev.strada.button", version: "1.0.0", components: [ButtonComponent.self]).export(
        host: host, into: plugin)
}
