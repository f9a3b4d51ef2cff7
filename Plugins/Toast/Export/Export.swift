import StradaPluginSDK
import StradaToastComponent

@_cdecl("strada_plugin_entry_v1")
public func stradaPluginEntry(host: UnsafeRawPointer?, plugin: UnsafeMutableRawPointer?) -> Int32 {
    StradaPlugin(id: "dev.strada.toast", version: "1.0.0", components: [ToastComponent.self]).export(
        host: host, into: plugin)
}
