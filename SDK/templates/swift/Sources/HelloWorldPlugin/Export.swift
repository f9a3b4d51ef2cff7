import StradaPluginSDK

// The one symbol strada-host looks for. List every component of this plugin here.
@_cdecl("strada_plugin_entry_v1")
public func stradaPluginEntry(host: UnsafeRawPointer?, plugin: UnsafeMutableRawPointer?) -> Int32 {
    StradaPlugin(id: "com.example.hello-world", version: "0.1.0", components: [HelloWorldComponent.self])
        .export(host: host, into: plugin)
}
