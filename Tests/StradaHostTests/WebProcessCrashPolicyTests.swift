import Foundation
import Testing

@testable import StradaHost

/// A dead web process is replaced by reloading, unless it keeps dying.
@Suite struct WebProcessCrashPolicyTests {
    @Test func theThirdDeathWithin30SecondsEndsTheHost() {
        var policy = WebProcessCrashPolicy()
        let start = Date()
        #expect(policy.webProcessDied(at: start) == .reload)
        #expect(policy.webProcessDied(at: start + 10) == .reload)
        #expect(
            policy.webProcessDied(at: start + 29)
                == .quit(code: 3, reason: "the web content process died 3 times in 30 s"))
    }

    @Test func deathsFurtherApartAreEachReloaded() {
        var policy = WebProcessCrashPolicy()
        let start = Date()
        for minute in 0..<5 { #expect(policy.webProcessDied(at: start + Double(minute) * 20) == .reload) }
    }
}
