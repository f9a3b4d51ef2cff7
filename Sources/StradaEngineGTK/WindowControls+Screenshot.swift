import CWebKitGTK

/// Screenshots: popovers and dialogs are separate surfaces, so a snapshot of the window alone misses them;
/// they are drawn over it here.
extension WindowControls {
    /// For screenshots: draws open popovers at their place and dialogs centred over a dimmed window.
    func drawOverlays(
        into snapshot: OpaquePointer?, window: UnsafeMutablePointer<GtkWidget>, width: Double, height: Double
    ) {
        for entry in menus.values where gtk_widget_get_visible(entry.popover) != 0 {
            // GTK places a popover under the rectangle it points to (or under its parent), centred.
            guard let parent = gtk_widget_get_parent(entry.popover) else { continue }
            var target = GdkRectangle(
                x: 0, y: 0, width: gtk_widget_get_width(parent), height: gtk_widget_get_height(parent))
            _ = gtk_popover_get_pointing_to(strada_gtk_popover(entry.popover), &target)
            var origin = graphene_point_t(x: 0, y: 0), inWindow = graphene_point_t(x: 0, y: 0)
            guard gtk_widget_compute_point(parent, window, &origin, &inWindow) != 0 else { continue }
            let popoverWidth = Double(gtk_widget_get_width(entry.popover))
            let x = Double(inWindow.x) + Double(target.x) + Double(target.width) / 2 - popoverWidth / 2
            let y = Double(inWindow.y) + Double(target.y) + Double(target.height)
            draw(entry.popover, into: snapshot, x: x, y: y)
        }
        for entry in alerts.values {
            var dim = graphene_rect_t(
                origin: graphene_point_t(x: 0, y: 0), size: graphene_size_t(width: Float(width), height: Float(height)))
            var shade = GdkRGBA(red: 0, green: 0, blue: 0, alpha: 0.35)
            gtk_snapshot_append_color(snapshot, &shade, &dim)
            let dialogWidth = Double(gtk_widget_get_width(entry.dialog))
            let dialogHeight = Double(gtk_widget_get_height(entry.dialog))
            draw(entry.dialog, into: snapshot, x: (width - dialogWidth) / 2, y: (height - dialogHeight) / 2)
        }
    }

    private func draw(_ widget: UnsafeMutablePointer<GtkWidget>, into snapshot: OpaquePointer?, x: Double, y: Double) {
        let widgetWidth = gtk_widget_get_width(widget), widgetHeight = gtk_widget_get_height(widget)
        guard widgetWidth > 0, widgetHeight > 0 else { return }
        let paintable = gtk_widget_paintable_new(widget)
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        gtk_snapshot_save(snapshot)
        var offset = graphene_point_t(x: Float(x), y: Float(y))
        gtk_snapshot_translate(snapshot, &offset)
        gdk_paintable_snapshot(paintable, snapshot, Double(widgetWidth), Double(widgetHeight))
        gtk_snapshot_restore(snapshot)
    }
}
