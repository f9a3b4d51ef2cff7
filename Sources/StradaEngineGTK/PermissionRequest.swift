import CWebKitGTK

/// A permission the page asks for; ``answer(_:)`` exactly once (a request never answered is denied when the
/// page goes).
@MainActor
package final class PermissionRequest {
    /// "notifications", "geolocation", "camera", "microphone", "camera-and-microphone", "screen" or "other".
    package let kind: String
    /// The origin of the page asking.
    package let origin: String
    private var request: UnsafeMutableRawPointer?

    init(kind: String, origin: String, request: UnsafeMutableRawPointer) {
        self.kind = kind
        self.origin = origin
        self.request = request
    }

    package func answer(_ allow: Bool) {
        guard let request else { return }
        self.request = nil
        strada_permission_answer(request, allow ? 1 : 0)
    }

    isolated deinit { answer(false) }
}
