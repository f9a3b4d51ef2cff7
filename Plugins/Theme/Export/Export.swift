import StradaPluginSDK
import StradaThemeComponent

@_cdecl("strada_plugin_entry_v1")
public func stradaPluginEntry(host: UnsafeRawPointer?, plugin: UnsafeMutableRawPointer?) -> Int32 {
    StradaPlugin(id: "dev.strada.theme", version: "1.0.0", components: [ThemeComponent.self]).export(
        host: host, into: plugin)
}
