import CStradaPlugin
import Synchronization

/// Optional host features plugins find with `host->get_extension("id/revision")`.
package enum PluginHostExtensions {
    /// Offers "dev.strada.gtk-handles/1" (`strada_gtk_handles_v1`) for the given GTK objects.
    package static func offerGTKHandles(
        window: UnsafeMutableRawPointer, headerBar: UnsafeMutableRawPointer, webView: UnsafeMutableRawPointer
    ) {
        GTKHandles.shared.withLock {
            $0 = (UInt(bitPattern: window), UInt(bitPattern: headerBar), UInt(bitPattern: webView))
        }
        let table = UnsafeMutablePointer<strada_gtk_handles_v1>.allocate(capacity: 1)
        table.initialize(
            to: strada_gtk_handles_v1(
                struct_size: UInt32(MemoryLayout<strada_gtk_handles_v1>.size), reserved: 0,
                window: { _ in UnsafeMutableRawPointer(bitPattern: GTKHandles.shared.withLock { $0.window }) },
                header_bar: { _ in UnsafeMutableRawPointer(bitPattern: GTKHandles.shared.withLock { $0.headerBar }) },
                web_view: { _ in UnsafeMutableRawPointer(bitPattern: GTKHandles.shared.withLock { $0.webView }) }))
        register(id: STRADA_GTK_HANDLES_EXTENSION_V1, table: UnsafeRawPointer(table))
    }

    private enum GTKHandles {
        static let shared = Mutex<(window: UInt, headerBar: UInt, webView: UInt)>((0, 0, 0))
    }

    /// Offers `table` (host-owned, valid until the process exits) under `id`, e.g. "dev.strada.gtk-handles/1".
    package static func register(id: String, table: UnsafeRawPointer) {
        HostAPI.extensions.withLock { $0[id] = UInt(bitPattern: table) }
    }
}
