import StradaPluginSDK

@_cdecl("strada_plugin_entry_v1")
public func stradaPluginEntry(host: UnsafeRawPointer?, plugin: UnsafeMutableRawPointer?) -> Int32 {
    StradaPlugin(id: "dev.example.greeting", version: "1.0.0", components: [GreetingComponent.self]).export(
        host: host, into: plugin)
}
