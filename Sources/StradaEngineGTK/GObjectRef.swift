import CWebKitGTK

/// A pointer to a GObject (a widget, a WebKit object, an action group): what ``GObjectRef`` can own.
protocol GObjectPointer {
    var gObject: UnsafeMutableRawPointer { get }
}

extension UnsafeMutablePointer: GObjectPointer {
    var gObject: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension OpaquePointer: GObjectPointer {
    var gObject: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

/// One reference to a GObject, held as long as this object lives: every GTK or GObject pointer the engine keeps
/// is one of these, so none outlives its object. A widget its parent lets go of (removed, replaced, its window
/// destroyed) stays a valid object — unused, never freed memory that GTK reuses — until its owner lets go too.
///
/// ``init(_:)`` takes the reference with `g_object_ref_sink`: a new widget's floating reference becomes ours,
/// and an object someone else owns (a window, a widget already in a parent) gets one more. ``init(adopting:)``
/// takes over the reference a `…_new` of a non-floating object (a `GSimpleActionGroup`, a
/// `WebKitUserContentManager`) returned to the caller. `deinit` gives the reference back with `g_object_unref`.
final class GObjectRef<Pointer: GObjectPointer> {
    let pointer: Pointer

    /// Owns `pointer` (sinking a floating reference, else adding one).
    init(_ pointer: Pointer) {
        self.pointer = pointer
        g_object_ref_sink(pointer.gObject)
    }

    /// Owns `pointer` through the reference the caller holds and hands over (nothing is added).
    init(adopting pointer: Pointer) {
        self.pointer = pointer
    }

    deinit { g_object_unref(pointer.gObject) }
}

/// An owned widget.
typealias WidgetRef = GObjectRef<UnsafeMutablePointer<GtkWidget>>
