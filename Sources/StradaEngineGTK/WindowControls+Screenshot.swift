import CWebKitGTK

/// Screenshots: popovers and dialogs are separate surfaces, so a snapshot of the window alone misses them;
/// they are drawn over it here.
extension WindowControls {
    /// For screenshots: draws open popovers at their place and dialogs centred over a dimmed window. Returns
    /// `false` when one of them has no picture now (just opened, or changed since its last frame): the
    /// screenshot waits for the next frame then (``BrowserWindow/saveScreenshot(to:frames:done:)``).
    func drawOverlays(
        into snapshot: OpaquePointer?, window: UnsafeMutablePointer<GtkWidget>, width: Double, height: Double
    ) -> Bool {
        var complete = true
        for entry in menus.values where gtk_widget_get_visible(entry.popover.pointer) != 0 {
            // GTK places a popover under the rectangle it points to (or under its parent), centred.
            guard let parent = gtk_widget_get_parent(entry.popover.pointer) else { continue }
            var target = GdkRectangle(
                x: 0, y: 0, width: gtk_widget_get_width(parent), height: gtk_widget_get_height(parent))
            _ = gtk_popover_get_pointing_to(strada_gtk_popover(entry.popover.pointer), &target)
            var origin = graphene_point_t(x: 0, y: 0), inWindow = graphene_point_t(x: 0, y: 0)
            guard gtk_widget_compute_point(parent, window, &origin, &inWindow) != 0 else { continue }
            let popoverWidth = Double(gtk_widget_get_width(entry.popover.pointer))
            let x = Double(inWindow.x) + Double(target.x) + Double(target.width) / 2 - popoverWidth / 2
            let y = Double(inWindow.y) + Double(target.y) + Double(target.height)
            complete = draw(entry.popover.pointer, into: snapshot, x: x, y: y) && complete
        }
        if primaryMenuOpen, let button = primaryMenu?.button.pointer, let popover = primaryMenuPopover,
            gtk_widget_get_visible(popover) != 0
        {
            // Under the button, centred, kept inside the window (GTK slides it in from the edge).
            var origin = graphene_point_t(x: 0, y: 0), inWindow = graphene_point_t(x: 0, y: 0)
            if gtk_widget_compute_point(button, window, &origin, &inWindow) != 0 {
                let popoverWidth = Double(gtk_widget_get_width(popover))
                let centred = Double(inWindow.x) + Double(gtk_widget_get_width(button)) / 2 - popoverWidth / 2
                let x = min(max(centred, 0), width - popoverWidth)
                let y = Double(inWindow.y) + Double(gtk_widget_get_height(button))
                complete = draw(popover, into: snapshot, x: x, y: y) && complete
            }
        }
        for dialog in alerts.values.map(\.dialog.pointer) + chromeWindows.values.map(\.window.pointer) {
            var dim = graphene_rect_t(
                origin: graphene_point_t(x: 0, y: 0), size: graphene_size_t(width: Float(width), height: Float(height)))
            var shade = GdkRGBA(red: 0, green: 0, blue: 0, alpha: 0.35)
            gtk_snapshot_append_color(snapshot, &shade, &dim)
            let dialogWidth = Double(gtk_widget_get_width(dialog))
            let dialogHeight = Double(gtk_widget_get_height(dialog))
            complete =
                draw(dialog, into: snapshot, x: (width - dialogWidth) / 2, y: (height - dialogHeight) / 2)
                && complete
        }
        return complete
    }

    /// Draws `widget`'s picture at (`x`, `y`); `false` when it has none now.
    private func draw(_ widget: UnsafeMutablePointer<GtkWidget>, into snapshot: OpaquePointer?, x: Double, y: Double)
        -> Bool
    {
        guard let picture = lastPicture(of: widget) else { return false }
        defer { gsk_render_node_unref(picture) }
        gtk_snapshot_save(snapshot)
        var offset = graphene_point_t(x: Float(x), y: Float(y))
        gtk_snapshot_translate(snapshot, &offset)
        gtk_snapshot_append_node(snapshot, picture)
        gtk_snapshot_restore(snapshot)
        return true
    }
}

/// The picture GTK drew of `widget` in its last frame, at its size (a render node the caller unrefs); `nil` when
/// it has no size or no picture now. GTK keeps a widget's picture from the frame that drew it and drops it — the
/// widget's and every ancestor's, up to the window — as soon as anything in it needs drawing again (a new frame
/// from the web process, a popover opening, a button's state), until the next frame draws it again.
func lastPicture(of widget: UnsafeMutablePointer<GtkWidget>) -> OpaquePointer? {
    let width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget)
    guard width > 0, height > 0 else { return nil }
    let paintable = gtk_widget_paintable_new(widget)
    defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
    let snapshot = gtk_snapshot_new()
    gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
    return gtk_snapshot_free_to_node(snapshot)
}
