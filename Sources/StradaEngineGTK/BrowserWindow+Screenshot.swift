import CWebKitGTK
import Dispatch

/// Screenshots of the whole window, with GTK's own renderer.
extension BrowserWindow {
    /// Saves a picture of the whole window to a PNG file at `path`, the window's size: header bar and page, open
    /// popovers and dialogs where they are shown, a presented modal over the dimmed window. `done` gets `nil` once
    /// the file is written, else why it could not be.
    ///
    /// GTK keeps each widget's picture from the last frame that drew it, and drops it, up to the window, whenever
    /// anything in the window needs drawing again — the web process delivering a new frame, a popover opening —
    /// until the next frame. A picture taken in between would have no window in it (it used to be the popover
    /// alone, at the popover's size). So when any part has no picture now, the window is drawn again and the
    /// picture is taken right after that frame is painted, when every part has one; at most `frames` frames or
    /// two seconds (a window not shown paints none).
    package func saveScreenshot(to path: String, frames: Int = 30, done: @escaping @MainActor (String?) -> Void) {
        PendingScreenshot(window: self, path: path, framesLeft: frames, done: done).attempt()
    }

    /// What one try at a screenshot came to.
    enum ScreenshotOutcome {
        case saved
        /// A part has no picture now: try again after the next frame.
        case notYet(String)
        case failed(String)
    }

    /// Renders the window and everything over it to `path`, if every part has a picture now.
    func renderScreenshot(to path: String) -> ScreenshotOutcome {
        let width = gtk_widget_get_width(window), height = gtk_widget_get_height(window)
        guard width > 0, height > 0, let native = gtk_widget_get_native(window),
            let renderer = gtk_native_get_renderer(native)
        else { return .notYet("the window has no size yet") }
        guard let picture = lastPicture(of: window) else {
            return .notYet("the window has not been drawn since it last changed")
        }
        let snapshot = gtk_snapshot_new()
        gtk_snapshot_append_node(snapshot, picture)
        gsk_render_node_unref(picture)
        // Popovers and dialogs are surfaces of their own: draw them where they are shown.
        var complete = controls.drawOverlays(
            into: snapshot, window: window, width: Double(width), height: Double(height))
        if let modal = presentedModal {
            complete = modal.drawAsModal(into: snapshot, width: Double(width), height: Double(height)) && complete
        }
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return .failed("the window drew nothing") }
        defer { gsk_render_node_unref(node) }
        guard complete else { return .notYet("a popover, dialog or modal over the window has not been drawn yet") }
        // The window's rectangle, whatever the parts' bounds: the picture is always the window's size.
        var viewport = graphene_rect_t(
            origin: graphene_point_t(x: 0, y: 0), size: graphene_size_t(width: Float(width), height: Float(height)))
        guard let texture = gsk_renderer_render_texture(renderer, node, &viewport) else {
            return .failed("GTK's renderer could not render the window")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        return gdk_texture_save_to_png(texture, path) != 0 ? .saved : .failed("could not write \(path)")
    }

    /// Draws this modal centred over its parent's picture (`width` × `height`), the parent dimmed, as GNOME
    /// shows a modal window. `false` when the modal, or something over it, has no picture now.
    private func drawAsModal(into snapshot: OpaquePointer?, width: Double, height: Double) -> Bool {
        var dim = graphene_rect_t(
            origin: graphene_point_t(x: 0, y: 0), size: graphene_size_t(width: Float(width), height: Float(height)))
        var shade = GdkRGBA(red: 0, green: 0, blue: 0, alpha: 0.35)
        gtk_snapshot_append_color(snapshot, &shade, &dim)
        guard let picture = lastPicture(of: window) else { return false }
        defer { gsk_render_node_unref(picture) }
        let modalWidth = Double(gtk_widget_get_width(window)), modalHeight = Double(gtk_widget_get_height(window))
        var origin = graphene_point_t(x: Float((width - modalWidth) / 2), y: Float((height - modalHeight) / 2))
        gtk_snapshot_save(snapshot)
        gtk_snapshot_translate(snapshot, &origin)
        gtk_snapshot_append_node(snapshot, picture)
        let complete = controls.drawOverlays(into: snapshot, window: window, width: modalWidth, height: modalHeight)
        gtk_snapshot_restore(snapshot)
        return complete
    }

    /// Asks for a frame of this window and of its modal (drawn again even when nothing changed).
    func queueScreenshotFrame() {
        gtk_widget_queue_draw(window)
        if let modal = presentedModal { gtk_widget_queue_draw(modal.window) }
    }
}

/// A screenshot waiting for a frame in which every part of the window has a picture.
@MainActor
private final class PendingScreenshot {
    private let window: BrowserWindow
    private let path: String
    private var framesLeft: Int
    private var done: (@MainActor (String?) -> Void)?
    /// The window's frame clock while a frame is awaited, owned (the window may go meanwhile).
    private var clock: GObjectRef<OpaquePointer>?
    private var handler: gulong = 0
    /// Why the last try could not take the picture.
    private var reason = ""

    init(window: BrowserWindow, path: String, framesLeft: Int, done: @escaping @MainActor (String?) -> Void) {
        self.window = window
        self.path = path
        self.framesLeft = framesLeft
        self.done = done
    }

    func attempt() {
        switch window.renderScreenshot(to: path) {
        case .saved: finish(nil)
        case .failed(let reason): finish(reason)
        case .notYet(let reason):
            self.reason = reason
            guard framesLeft > 0, let clock = clock?.pointer ?? gtk_widget_get_frame_clock(window.window) else {
                return finish("\(reason) (the window is not being drawn)")
            }
            framesLeft -= 1
            if self.clock == nil {
                self.clock = GObjectRef(clock)
                // Held by the handler (and the deadline) until done.
                handler = onSignal(UnsafeMutableRawPointer(clock), "after-paint") { [self] in
                    guard done != nil else { return }
                    attempt()
                }
                DispatchQueue.main.asyncAfter(deadline: .now() + .seconds(2)) { [self] in
                    MainActor.assumeIsolated { finish("\(self.reason) (no frame drew it within 2 s)") }
                }
            }
            window.queueScreenshotFrame()
        }
    }

    private func finish(_ error: String?) {
        guard let done else { return }
        self.done = nil
        if let clock, handler != 0 { g_signal_handler_disconnect(UnsafeMutableRawPointer(clock.pointer), handler) }
        handler = 0
        done(error)
    }
}
