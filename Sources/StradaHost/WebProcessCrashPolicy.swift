import Foundation

/// What the host does when the main window's web content process dies: reload the page (a new process),
/// unless it keeps dying — three deaths within 30 seconds end the host (exit code 3).
struct WebProcessCrashPolicy {
    enum Decision: Equatable {
        case reload
        case quit(code: Int32, reason: String)
    }

    private var recentCrashes: [Date] = []

    /// Records a death at `now` and says what to do about it.
    mutating func webProcessDied(at now: Date = Date()) -> Decision {
        recentCrashes = recentCrashes.filter { now.timeIntervalSince($0) < 30 } + [now]
        guard recentCrashes.count >= 3 else { return .reload }
        return .quit(code: 3, reason: "the web content process died 3 times in 30 s")
    }
}
