import Foundation
import StradaAutomation

/// When each phase of the host's start ended, for the `host.startup` event (and `scripts/bench`'s phase
/// table): milliseconds since `main` started, on the monotonic clock. ``begin()`` is called first thing in
/// `main`; the session marks the phases as it passes them (the first mark of a phase counts).
@MainActor
package enum StartupTimeline {
    /// `CLOCK_MONOTONIC` in ms when `main` started; `nil` until ``begin()``.
    nonisolated(unsafe) private static var mainClock: Double?
    /// From the process's start (as the kernel dates it, in 10 ms steps) to `main`, in ms.
    nonisolated(unsafe) private static var beforeMain = 0.0
    private static var phases: [String: Double] = [:]

    /// Starts the timeline: call it first thing in `main`, on the main thread.
    nonisolated package static func begin() {
        let now = monotonicMilliseconds()
        mainClock = now
        beforeMain = processAge(at: now)
    }

    /// Marks the end of `phase` now (once: later marks of the same phase are ignored).
    static func mark(_ phase: String) {
        guard let mainClock, phases[phase] == nil else { return }
        phases[phase] = monotonicMilliseconds() - mainClock
    }

    /// Marks `phase` (see ``mark(_:)``); when it is the main window's first frame, reports the timeline as
    /// the `host.startup` event on `channel`.
    static func passed(_ phase: String, reportingTo channel: AutomationChannel?) {
        mark(phase)
        guard phase == "firstFrame", let report else { return }
        channel?.emit(.hostStartup(phases: report.phases, mainClock: report.mainClock, beforeMain: report.beforeMain))
    }

    /// The phases marked so far, as the `host.startup` event reports them; `nil` without ``begin()``.
    static var report: (phases: [String: Double], mainClock: Double, beforeMain: Double)? {
        mainClock.map { (phases, $0, beforeMain) }
    }

    nonisolated private static func monotonicMilliseconds() -> Double { milliseconds(CLOCK_MONOTONIC) }

    /// `clock` now, in ms.
    nonisolated private static func milliseconds(_ clock: clockid_t) -> Double {
        var now = timespec()
        clock_gettime(clock, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
    }

    /// How long ago the process started: its start time in `/proc/self/stat` (clock ticks since boot) against
    /// the boot-time clock now, converted to the monotonic clock's `now`. 0 when it cannot be read.
    nonisolated private static func processAge(at now: Double) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let afterName = stat.range(of: ")", options: .backwards)
        else { return 0 }
        // Fields after the name start at field 3 (state); the start time is field 22.
        let fields = stat[afterName.upperBound...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return 0 }
        let bootMilliseconds = milliseconds(CLOCK_BOOTTIME)
        let monotonicNow = monotonicMilliseconds()
        let started = ticks * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
        let age = bootMilliseconds - started - (monotonicNow - now)
        return max(age, 0)
    }
}
