import CStradaPlugin
import StradaABI

/// A native screen a plugin built ("dev.strada.screens/1"): its widget, and the plugin to tell when it goes.
@MainActor
package final class NativeScreen {
    /// The `GtkWidget *` (the host holds a reference while the screen lives).
    package let widget: UnsafeMutableRawPointer
    /// The screen's name (`view_controller` in the path configuration) and the plugin that provides it.
    package let name: String
    package let pluginID: String
    private let descriptor: PluginDescriptor
    private let table: UnsafePointer<strada_screens_v1>
    private var destroyed = false

    fileprivate init(
        widget: UnsafeMutableRawPointer, name: String, descriptor: PluginDescriptor,
        table: UnsafePointer<strada_screens_v1>
    ) {
        self.widget = widget
        self.name = name
        pluginID = descriptor.pluginID
        self.descriptor = descriptor
        self.table = table
    }

    /// The screen is gone: the plugin's `destroy_screen` (once), before the host drops the widget.
    package func destroy() {
        guard !destroyed else { return }
        destroyed = true
        descriptor.crash.calling("destroy_screen") {
            table.pointee.destroy_screen?(descriptor.table.plugin_context, widget)
        }
    }
}

extension LoadedPlugin {
    /// The plugin's screens table, if it offers a valid one.
    @MainActor
    var screensTable: UnsafePointer<strada_screens_v1>? {
        let table = descriptor.table
        guard let lookup = table.get_extension,
            let raw = descriptor.crash.calling(
                "get_extension", { lookup(table.plugin_context, STRADA_SCREENS_EXTENSION_V1) })
        else { return nil }
        let screens = UnsafePointer(raw.assumingMemoryBound(to: strada_screens_v1.self))
        guard screens.pointee.struct_size >= STRADA_SCREENS_V1_MIN_SIZE_1_0, screens.pointee.screen_count > 0,
            let names = screens.pointee.screen_names
        else { return nil }
        for index in 0..<Int(screens.pointee.screen_count) where names[index] == nil { return nil }
        return screens
    }

    /// The native screens the plugin provides (the values of `view_controller` it answers to).
    @MainActor
    package var nativeScreenNames: [String] {
        guard let table = screensTable, let names = table.pointee.screen_names else { return [] }
        return (0..<Int(table.pointee.screen_count)).compactMap { names[$0].map { String(cString: $0) } }
    }

    /// Builds native screen `name` for `url` with the matching rules' properties (a JSON object); `nil`
    /// when the plugin does not provide it or its `create_screen` returned NULL.
    @MainActor
    package func makeNativeScreen(named name: String, url: String, propertiesJSON: String) -> NativeScreen? {
        guard let table = screensTable, nativeScreenNames.contains(name) else { return nil }
        let widget = name.withCString { cName in
            withStradaString(url) { url in
                withStradaString(propertiesJSON) { properties in
                    descriptor.crash.calling("create_screen") {
                        table.pointee.create_screen(descriptor.table.plugin_context, cName, url, properties)
                    }
                }
            }
        }
        guard let widget else { return nil }
        return NativeScreen(widget: widget, name: name, descriptor: descriptor, table: table)
    }
}

extension PluginRegistry {
    /// The plugin that provides native screen `name` (first in load order), if any. Manifests do not list screens,
    /// so plugins declared but not opened yet are opened, in order, until one provides it.
    package func nativeScreenProvider(named name: String) -> LoadedPlugin? {
        if let plugin = plugins.first(where: { $0.nativeScreenNames.contains(name) }) { return plugin }
        for path in statuses.map(\.path) {
            guard let plugin = opened(path, for: "native screen \(name)"), plugin.nativeScreenNames.contains(name)
            else { continue }
            return plugin
        }
        return nil
    }
}
