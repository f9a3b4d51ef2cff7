import CStradaPlugin
import Foundation
import Logging
import StradaABI
import StradaCore
import Synchronization

/// The host side of the C ABI: the `strada_host_api_v1` table handed to each plugin, and the registry
/// that turns `strada_host_instance*` handles back into live component proxies.
///
/// Handles are small integers, not pointers: a plugin that calls with a handle whose page is gone gets
/// `STRADA_ERR_GONE`, never a use-after-free.
enum HostAPI {
    /// Per-plugin context behind `host_context`: lets log lines name the plugin.
    final class PluginContext: Sendable {
        let path: String
        let logger: Logger
        init(path: String) {
            self.path = path
            var logger = Logger(label: "strada.plugin")
            logger[metadataKey: "plugin"] = .string((path as NSString).lastPathComponent)
            self.logger = logger
        }
    }

    /// One table per plugin (so `log` can say which plugin wrote), allocated once and never freed.
    static func table(forPluginAt path: String) -> UnsafePointer<strada_host_api_v1> {
        let table = UnsafeMutablePointer<strada_host_api_v1>.allocate(capacity: 1)
        table.initialize(
            to: strada_host_api_v1(
                struct_size: UInt32(MemoryLayout<strada_host_api_v1>.size),
                abi_major: UInt32(STRADA_PLUGIN_ABI_MAJOR),
                abi_minor: UInt32(STRADA_PLUGIN_ABI_MINOR),
                reserved: 0,
                host_context: Unmanaged.passRetained(PluginContext(path: path)).toOpaque(),
                reply: reply,
                log: log,
                codec_settings_json: codecSettingsJSON,
                run_on_main_thread: runOnMainThread,
                set_button: setButton,
                remove_button: removeButton,
                get_extension: getExtension,
                reply_to_event: replyToEvent))
        return UnsafePointer(table)
    }

    // MARK: Extensions

    /// Extension tables by id ("name/revision"), as raw addresses of host-owned, never-freed tables.
    static let extensions = Mutex<[String: UInt]>([:])

    private static let getExtension:
        @convention(c) (UnsafePointer<strada_host_api_v1>?, UnsafePointer<CChar>?) -> UnsafeRawPointer? = { _, id in
            guard let id, let key = String(validatingCString: id) else { return nil }
            if key == STRADA_CONTROLS_EXTENSION_V1 { return UnsafeRawPointer(controlsTable) }
            return UnsafeRawPointer(bitPattern: extensions.withLock { $0[key] ?? 0 })
        }

    /// "dev.strada.controls/1": every control but buttons, described as JSON (strada_controls.h).
    nonisolated(unsafe) static let controlsTable: UnsafeMutablePointer<strada_controls_v1> = {
        let table = UnsafeMutablePointer<strada_controls_v1>.allocate(capacity: 1)
        table.initialize(
            to: strada_controls_v1(
                struct_size: UInt32(MemoryLayout<strada_controls_v1>.size), reserved: 0,
                show: { _, handle, id, spec in
                    guard let id = id.string, !id.isEmpty, let spec = spec.string else {
                        return STRADA_ERR_INVALID_ARGUMENT
                    }
                    return withInstance(handle) { component in component.showControl(id: id, specJSON: spec) }
                },
                remove: { _, handle, id in
                    guard let id = id.string else { return STRADA_ERR_INVALID_ARGUMENT }
                    return withInstance(handle) { component in component.removeControl(id: id) }
                }))
        return table
    }()

    // MARK: Instance registry (main thread only)

    @MainActor static var instances: [UInt: any PluginHostCalls] = [:]
    @MainActor static var nextHandle: UInt = 1

    @MainActor
    static func register(_ component: any PluginHostCalls) -> OpaquePointer {
        let handle = nextHandle
        nextHandle += 1
        instances[handle] = component
        return OpaquePointer(bitPattern: handle)!
    }

    @MainActor
    static func unregister(_ handle: OpaquePointer) {
        instances[UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))] = nil
    }

    /// The registry key of `handle`.
    private static func key(_ handle: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))
    }

    /// Runs `body` on the main actor with the live proxy for `handle`, or returns the right error code.
    private static func withInstance(
        _ handle: OpaquePointer?, _ body: @MainActor (any PluginHostCalls) -> strada_status
    ) -> strada_status {
        guard MainThread.isCurrent else { return STRADA_ERR_WRONG_THREAD }
        guard let handle else { return STRADA_ERR_INVALID_ARGUMENT }
        let slot = key(handle)
        return MainActor.assumeIsolated {
            guard let component = instances[slot] else { return STRADA_ERR_GONE }
            return body(component)
        }
    }

    // MARK: The table's functions

    private static let reply:
        @convention(c) (UnsafePointer<strada_host_api_v1>?, OpaquePointer?, strada_string) -> strada_status = {
            _, handle, json in
            // Main thread only (withInstance checks): the plugin's bytes stay valid for the whole call.
            nonisolated(unsafe) let json = json
            return withInstance(handle) { component in
                component.takeReply(UnsafeRawBufferPointer(start: json.data, count: Int(json.length))) { json.string }
            }
        }

    private static let replyToEvent:
        @convention(c) (UnsafePointer<strada_host_api_v1>?, OpaquePointer?, strada_string, strada_string) ->
            strada_status = { _, handle, event, data in
                guard let event = event.string, !event.isEmpty, let text = data.string else {
                    return STRADA_ERR_INVALID_ARGUMENT
                }
                return withInstance(handle) { component in component.replyFromPlugin(toEvent: event, dataJSON: text) }
            }

    private static let log:
        @convention(c) (UnsafePointer<strada_host_api_v1>?, strada_log_level, strada_string) -> Void = {
            host, level, text in
            guard let context = host?.pointee.host_context else { return }
            let plugin = Unmanaged<PluginContext>.fromOpaque(context).takeUnretainedValue()
            let line = text.string ?? "(invalid UTF-8 log line)"
            switch level {
            case STRADA_LOG_DEBUG: plugin.logger.debug("\(line)")
            case STRADA_LOG_INFO: plugin.logger.info("\(line)")
            case STRADA_LOG_WARNING: plugin.logger.warning("\(line)")
            default: plugin.logger.error("\(line)")
            }
        }

    /// The last settings handed out and the address of their C string (never freed: callers may hold it).
    private static let codecCache = Mutex<(json: String, address: UInt)>(("", 0))

    /// Never NULL (the header promises it): if a copy of changed settings cannot be made, the last copy
    /// (or the defaults, a static string) is handed out.
    private static let codecSettingsJSON: @convention(c) (UnsafePointer<strada_host_api_v1>?) -> UnsafePointer<CChar>? =
        { _ in
            let json = Strada.config.codec.json
            let address = codecCache.withLock { cache in
                if cache.json != json || cache.address == 0, let copy = strdup(json) {
                    cache = (json, UInt(bitPattern: copy))
                }
                return cache.address
            }
            return UnsafePointer(bitPattern: address)
                ?? UnsafeRawPointer(defaultCodecSettings.utf8Start).assumingMemoryBound(to: CChar.self)
        }

    /// `CodecSettings().json`, in static storage (NUL-terminated).
    static let defaultCodecSettings: StaticString = #"{"dates":"deferredToDate","keys":"useDefaultKeys"}"#

    private struct MainThreadWork: @unchecked Sendable {  // the plugin promises fn/context may move threads
        let fn: strada_main_thread_fn
        let context: UnsafeMutableRawPointer?
    }

    private static let runOnMainThread:
        @convention(c) (UnsafePointer<strada_host_api_v1>?, strada_main_thread_fn?, UnsafeMutableRawPointer?) ->
            strada_status = { _, fn, context in
                guard let fn else { return STRADA_ERR_INVALID_ARGUMENT }
                let work = MainThreadWork(fn: fn, context: context)
                DispatchQueue.main.async { work.fn(work.context) }
                return STRADA_OK
            }

    private static let setButton:
        @convention(c) (UnsafePointer<strada_host_api_v1>?, OpaquePointer?, UnsafePointer<strada_button_v1>?) ->
            strada_status = { _, handle, spec in
                // ABI 1.0's size, not this header's: a later 1.x struct is larger, and a 1.0 plugin's is still valid.
                guard let spec, spec.pointee.struct_size >= STRADA_BUTTON_V1_MIN_SIZE_1_0,
                    let id = spec.pointee.id.string, !id.isEmpty, let title = spec.pointee.title.string,
                    let iconName = spec.pointee.icon_name.string
                else { return STRADA_ERR_INVALID_ARGUMENT }
                let icon = iconName.isEmpty ? nil : iconName
                let style: ButtonStyle =
                    switch Int32(spec.pointee.style) {
                    case STRADA_BUTTON_STYLE_SUGGESTED: .suggested
                    case STRADA_BUTTON_STYLE_DESTRUCTIVE: .destructive
                    default: .normal
                    }
                let button = HeaderButton(
                    id: id, title: title, iconName: icon, isEnabled: spec.pointee.enabled != 0,
                    placement: spec.pointee.placement == STRADA_PLACEMENT_START ? .start : .end, style: style)
                return withInstance(handle) { component in component.setButton(button) }
            }

    private static let removeButton:
        @convention(c) (UnsafePointer<strada_host_api_v1>?, OpaquePointer?, strada_string) -> strada_status = {
            _, handle, id in
            guard let id = id.string else { return STRADA_ERR_INVALID_ARGUMENT }
            return withInstance(handle) { component in component.removeButton(id: id) }
        }
}

/// Whether the calling thread is the process's main thread, checked on every call into the host table.
///
/// Foundation's `Thread.isMainThread` asks the kernel on Linux (`gettid() == getpid()`: two system calls, one
/// pair per plugin reply; the cost is in docs/engine.md). This asks once, on the first call made on the main
/// thread, remembers that thread's `pthread_t` and from then on compares identities. The main thread's identity
/// cannot be reused by another thread while the process runs.
enum MainThread {
    static let identity = ThreadIdentity()
    static var isCurrent: Bool { identity.isCurrent(ask: { Thread.isMainThread }) }
}

/// One thread's identity, learnt the first time `ask` says the calling thread is the one.
final class ThreadIdentity: Sendable {
    /// The thread's `pthread_t` as a bit pattern, 0 until `ask` said yes once.
    private let known = Atomic<UInt>(0)

    func isCurrent(ask: () -> Bool) -> Bool {
        let me = UInt(pthread_self())
        let main = known.load(ordering: .relaxed)
        if main != 0 { return main == me }
        guard ask() else { return false }
        known.store(me, ordering: .relaxed)
        return true
    }
}
