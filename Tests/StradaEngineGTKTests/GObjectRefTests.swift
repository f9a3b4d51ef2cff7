import CWebKitGTK
import Testing

@testable import StradaEngineGTK

/// GObjectRef owns one reference (issue 36): a floating one sunk, another added, or a caller's adopted; given
/// back when the owner goes. Objects that need no display: `GtkAdjustment` (floating, as widgets are) and `GMenu`.
struct GObjectRefTests {
    /// Counts the finalizations of the objects it watches (GLib calls the weak-reference notify then).
    final class Finalizations {
        var count = 0

        func watch(_ object: UnsafeMutableRawPointer) {
            g_object_weak_ref(
                object.assumingMemoryBound(to: GObject.self),
                { data, _ in Unmanaged<Finalizations>.fromOpaque(data!).takeUnretainedValue().count += 1 },
                Unmanaged.passUnretained(self).toOpaque())
        }
    }

    static func referenceCount(_ object: UnsafeMutableRawPointer) -> UInt32 {
        object.assumingMemoryBound(to: GObject.self).pointee.ref_count
    }

    @Test func aFloatingReferenceIsSunkAndReleasedWithTheOwner() {
        let finalized = Finalizations()
        var owner: GObjectRef<OpaquePointer>? = GObjectRef(OpaquePointer(gtk_adjustment_new(0, 0, 1, 1, 1, 0)!))
        let object = UnsafeMutableRawPointer(owner!.pointer)
        finalized.watch(object)
        #expect(g_object_is_floating(object) == 0, "the new object's floating reference is the owner's")
        #expect(Self.referenceCount(object) == 1)
        owner = nil
        #expect(finalized.count == 1)
    }

    @Test func anObjectOwnedElsewhereOutlivesItsOtherOwnerUntilThisOneGoes() {
        let finalized = Finalizations()
        let menu = g_menu_new()!
        let object = UnsafeMutableRawPointer(menu)
        finalized.watch(object)
        var owner: GObjectRef<OpaquePointer>? = GObjectRef(menu)
        #expect(Self.referenceCount(object) == 2, "one reference more")
        g_object_unref(object)  // the other owner lets go (a parent dropping a widget it freed before)
        #expect(finalized.count == 0, "still owned")
        owner = nil
        #expect(finalized.count == 1)
    }

    @Test func anAdoptedReferenceIsTheOwnersOnly() {
        let finalized = Finalizations()
        var owner: GObjectRef<OpaquePointer>? = GObjectRef(adopting: g_menu_new()!)
        let object = UnsafeMutableRawPointer(owner!.pointer)
        finalized.watch(object)
        #expect(Self.referenceCount(object) == 1, "nothing added to the reference `g_menu_new` returned")
        owner = nil
        #expect(finalized.count == 1)
    }
}
