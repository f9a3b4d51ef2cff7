import CWebKitGTK
import Foundation

// MARK: - Signals
//
// g_signal_connect() is a macro Swift cannot see; we call g_signal_connect_data with one non-capturing
// @convention(c) trampoline per C signature. The Swift closure travels in user_data as a retained box,
// released by GLib (GClosureNotify) when the handler is disconnected or the object dies.

final class SignalBox<Argument>: @unchecked Sendable {  // only created and called on the main thread
    let body: @MainActor (Argument) -> Void
    init(_ body: @escaping @MainActor (Argument) -> Void) { self.body = body }
}

private let releaseBox: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

@discardableResult
private func connect<Argument>(
    _ instance: UnsafeMutableRawPointer, _ signal: String, _ trampoline: GCallback,
    _ body: @escaping @MainActor (Argument) -> Void
) -> gulong {
    let box: AnyObject = SignalBox<Argument>(body)
    return g_signal_connect_data(
        instance, signal, trampoline, Unmanaged.passRetained(box).toOpaque(), releaseBox, GConnectFlags(rawValue: 0))
}

private func invoke<Argument>(_ userData: gpointer?, _ argument: Argument) {
    guard let userData else { return }
    let box = Unmanaged<AnyObject>.fromOpaque(userData).takeUnretainedValue() as! SignalBox<Argument>
    nonisolated(unsafe) let argument = argument  // GTK emits these signals on the main thread only
    MainActor.assumeIsolated { box.body(argument) }
}

/// `(instance, user_data) -> void` signals: "clicked", "close".
@discardableResult
func onSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping @MainActor () -> Void) -> gulong
{
    typealias Handler = @convention(c) (gpointer?, gpointer?) -> Void
    let trampoline: Handler = { _, userData in invoke(userData, ()) }
    return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self)) { (_: Void) in body() }
}

/// `(instance, user_data) -> gboolean` signals: "close-request". The handler's result is returned to GTK.
@discardableResult
func onBoolSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping @MainActor () -> Bool)
    -> gulong
{
    final class ResultBox: @unchecked Sendable { var value = false }
    typealias Handler = @convention(c) (gpointer?, gpointer?) -> gboolean
    let trampoline: Handler = { _, userData in
        let result = ResultBox()
        invoke(userData, result)
        return result.value ? 1 : 0
    }
    return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self)) { (result: ResultBox) in
        result.value = body()
    }
}

/// `(instance, pointer, user_data) -> void` signals: "script-message-received::x" (JSCValue*),
/// "notify::x" (GParamSpec*).
@discardableResult
func onPointerSignal(
    _ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping @MainActor (OpaquePointer?) -> Void
) -> gulong {
    typealias Handler = @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void
    let trampoline: Handler = { _, argument, userData in invoke(userData, argument) }
    return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), body)
}

/// `(instance, const char *, user_data) -> void` signals: "response" of `AdwMessageDialog`.
@discardableResult
func onStringSignal(
    _ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping @MainActor (String) -> Void
) -> gulong {
    typealias Handler = @convention(c) (gpointer?, UnsafePointer<CChar>?, gpointer?) -> Void
    let trampoline: Handler = { _, argument, userData in invoke(userData, argument.map { String(cString: $0) } ?? "") }
    return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), body)
}

/// `(instance, enum, user_data) -> void` signals: "load-changed", "web-process-terminated".
@discardableResult
func onEnumSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping @MainActor (UInt32) -> Void)
    -> gulong
{
    typealias Handler = @convention(c) (gpointer?, UInt32, gpointer?) -> Void
    let trampoline: Handler = { _, argument, userData in invoke(userData, argument) }
    return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), body)
}

// MARK: - Main loop

/// The GLib main loop on the process main thread, with `DispatchQueue.main`, `@MainActor` and `Task {}`
/// drained from it (libdispatch's main-queue eventfd watched as a GLib fd source).
@MainActor
package final class MainLoop {
    private let loop: OpaquePointer
    /// The code `run()` returns, set by `quit(exitCode:)`.
    package private(set) var exitCode: Int32 = 0

    package init() {
        loop = g_main_loop_new(nil, 0)
        let fd = _dispatch_get_main_queue_handle_4CF()
        let drain: GUnixFDSourceFunc = { fd, _, _ in
            var counter: UInt64 = 0
            _ = read(fd, &counter, 8)  // reset the eventfd (non-blocking)
            _dispatch_main_queue_callback_4CF(nil)
            return 1  // G_SOURCE_CONTINUE
        }
        g_unix_fd_add(fd, G_IO_IN, drain, nil)
    }

    /// Runs until `quit(exitCode:)`; returns the exit code.
    package func run() -> Int32 {
        g_main_loop_run(loop)
        return exitCode
    }

    package func quit(exitCode: Int32 = 0) {
        self.exitCode = exitCode
        g_main_loop_quit(loop)
    }
}

/// Reads newline-delimited input from a file descriptor on the GLib main loop.
@MainActor
final class LineReader {
    private var buffer: [UInt8] = []
    private let onLine: @MainActor (String) -> Void
    private let onEnd: @MainActor () -> Void

    init(fd: Int32, onLine: @escaping @MainActor (String) -> Void, onEnd: @escaping @MainActor () -> Void) {
        self.onLine = onLine
        self.onEnd = onEnd
        let callback: GUnixFDSourceFunc = { fd, _, userData in
            let reader = Unmanaged<LineReader>.fromOpaque(userData!).takeUnretainedValue()
            return MainActor.assumeIsolated { reader.readAvailable(fd) ? 1 : 0 }
        }
        g_unix_fd_add(
            fd, GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue), callback,
            Unmanaged.passRetained(self).toOpaque())
    }

    /// `false` at end of input (the source is removed).
    private func readAvailable(_ fd: Int32) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = read(fd, &chunk, chunk.count)
        if count <= 0 {
            onEnd()
            return false
        }
        buffer.append(contentsOf: chunk[0..<count])
        while let newline = buffer.firstIndex(of: 0x0A) {
            let line = String(decoding: buffer[..<newline], as: UTF8.self)
            buffer.removeSubrange(...newline)
            if !line.isEmpty { onLine(line) }
        }
        return true
    }
}

/// The display the host's windows open on.
package enum Display {
    /// Chooses GTK's cairo renderer unless `GSK_RENDERER` is set (no GL context per window: under Xvfb's
    /// software GL it starts faster and uses less memory), then opens the display. `false` when there is none.
    /// With the cairo renderer chosen here and WebKit's hardware acceleration off (the defaults), GTK's own
    /// OpenGL is not initialised either (nothing draws with it; GDK would load the GL driver while it opens
    /// the display).
    ///
    /// WebKit's UI process needs no GL then either (the web process sends its frames as shared-memory
    /// bitmaps), yet it initialises EGL to offer a DMA-BUF renderer and to name a render device for the web
    /// process; `WEBKIT_DISABLE_DMABUF_RENDERER=1` and `WEBKIT_WEB_RENDER_DEVICE_FILE` (the first
    /// `/dev/dri/renderD*`, else `/dev/null`) stop that, so the host does not load the GL driver at all
    /// (Mesa's and LLVM). Both are set only when unset (yours win). With `STRADA_WEBKIT_HW_ACCEL=1` they are
    /// not set, and the driver WebKit needs is loaded on another thread while the display opens and the
    /// plugins load (`strada_egl_warm_up`).
    @MainActor
    package static func open() -> Bool {
        let environment = ProcessInfo.processInfo.environment
        let accelerated = environment["STRADA_WEBKIT_HW_ACCEL"] == "1"
        if accelerated {
            strada_egl_warm_up()
        } else {
            setenv("WEBKIT_DISABLE_DMABUF_RENDERER", "1", 0)
            setenv("WEBKIT_WEB_RENDER_DEVICE_FILE", renderNode(), 0)
        }
        let withoutGL = environment["GSK_RENDERER"] == nil && environment["GDK_DEBUG"] == nil && !accelerated
        setenv("GSK_RENDERER", "cairo", 0)
        if withoutGL { setenv("GDK_DEBUG", "gl-disable", 1) }
        // GDK reads GDK_DEBUG once, here; processes the host starts do not inherit it.
        defer { if withoutGL { unsetenv("GDK_DEBUG") } }
        // Without a session bus, GTK and libadwaita would each try to autolaunch one while they start
        // (`dbus-launch`: a fork of the host, to fail); they look for it only here, and find none either way.
        // Only for this call: WebKit would otherwise proxy the made-up address into its sandbox.
        let withoutBus = !SessionBus.reachable && getenv("DBUS_SESSION_BUS_ADDRESS") == nil
        if withoutBus { setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:", 1) }
        defer { if withoutBus { unsetenv("DBUS_SESSION_BUS_ADDRESS") } }
        guard gtk_init_check() != 0 || reopen() else { return false }
        // libadwaita's stylesheet replaces GTK's default theme: set up before the first widget, GTK does not
        // parse and apply its own theme first (the window's controls call it again: once is enough).
        adw_init()
        return true
    }

    /// Whether the display opened only on a second try (see ``open()``).
    @MainActor package private(set) static var openedOnSecondTry = false

    /// The display named in the environment (`WAYLAND_DISPLAY`, else `DISPLAY`), `nil` when none is.
    package static var name: String? {
        for variable in ["WAYLAND_DISPLAY", "DISPLAY"] {
            if let value = getenv(variable), value.pointee != 0 { return String(cString: value) }
        }
        return nil
    }

    /// GTK could not open the X display `DISPLAY` names: one more try, after 100 ms. An X server resets when its
    /// last client leaves (unless started with `-noreset`, which `xvfb-run` does not do) and drops every client
    /// still setting up its connection then: a client that connects just as the last one leaves (a previous
    /// run's web process, which leaves after its host) loses its connection, and the next one waits for the
    /// reset and goes through. The display opened here becomes GTK's default, as gtk_init_check()'s would have.
    @MainActor private static func reopen() -> Bool {
        guard let display = getenv("DISPLAY"), display.pointee != 0 else { return false }
        usleep(100_000)
        openedOnSecondTry = gdk_display_open(nil) != nil
        return openedOnSecondTry
    }

    /// The first DRM render node (`/dev/dri/renderD128`, …), or `/dev/null` on a machine without one.
    private static func renderNode() -> String {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return nodes.filter { $0.hasPrefix("renderD") }.sorted().first.map { "/dev/dri/" + $0 } ?? "/dev/null"
    }
}
