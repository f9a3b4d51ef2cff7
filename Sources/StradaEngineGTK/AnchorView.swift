import CWebKitGTK

/// The widget menus with an anchor point into (the web view).
@MainActor
protocol AnchorView: AnyObject {
    var widget: UnsafeMutablePointer<GtkWidget> { get }
}
