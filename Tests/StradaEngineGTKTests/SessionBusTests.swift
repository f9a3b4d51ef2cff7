import Testing

@testable import StradaEngineGTK

/// What a `DBUS_SESSION_BUS_ADDRESS` names, with a made-up file system: the sockets in `present` exist.
struct SessionBusTests {
    static let present: Set<String> = ["/run/user/1000/bus", "/tmp/a bus"]

    static func classify(_ address: String?) -> SessionBus.Address {
        SessionBus.classify(address) { present.contains($0) }
    }

    @Test(arguments: [nil, "", " ", ";;"])
    func noAddressIsUnset(_ address: String?) {
        #expect(Self.classify(address) == .unset)
    }

    @Test func aSocketThatExistsIsUsableWithItsKeysInAnyOrder() {
        #expect(Self.classify("unix:path=/run/user/1000/bus") == .usable("unix:path=/run/user/1000/bus"))
        #expect(
            Self.classify("unix:path=/run/user/1000/bus,guid=0123abcd")
                == .usable("unix:path=/run/user/1000/bus,guid=0123abcd"))
        #expect(
            Self.classify("unix:guid=0123,path=/run/user/1000/bus") == .usable("unix:guid=0123,path=/run/user/1000/bus")
        )
    }

    @Test func aPathIsUnescaped() {
        #expect(Self.classify("unix:path=/tmp/a%20bus") == .usable("unix:path=/tmp/a%20bus"))
    }

    @Test func aSocketThatIsNotThereIsMissing() {
        #expect(Self.classify("unix:path=/nonexistent/bus") == .missing(["/nonexistent/bus"]))
        #expect(Self.classify("unix:path=/nonexistent/bus,guid=0123abcd") == .missing(["/nonexistent/bus"]))
    }

    @Test func aListIsMissingOnlyWhenEverySocketIsMissing() {
        #expect(Self.classify("unix:path=/gone/a;unix:path=/gone/b") == .missing(["/gone/a", "/gone/b"]))
        #expect(Self.classify("unix:path=/gone/a;disabled:") == .missing(["/gone/a"]))
        #expect(
            Self.classify("unix:path=/gone/a;unix:path=/run/user/1000/bus,guid=1")
                == .usable("unix:path=/run/user/1000/bus,guid=1"))
        #expect(
            Self.classify("unix:path=/run/user/1000/bus;unix:path=/gone/b") == .usable("unix:path=/run/user/1000/bus"))
    }

    /// Nothing here can tell whether these are there: they are left to GLib.
    @Test(arguments: [
        "unix:abstract=/tmp/dbus-Xyz,guid=1", "unix:tmpdir=/tmp", "tcp:host=localhost,port=4711",
        "autolaunch:", "nonsense",
    ])
    func entriesThatCannotBeCheckedAreUsable(_ address: String) {
        #expect(Self.classify(address) == .usable(address))
        #expect(Self.classify("unix:path=/gone/a;" + address) == .usable(address))
    }

    @Test func disabledIsNoBus() {
        #expect(Self.classify("disabled:") == .disabled)
        #expect(Self.classify("disabled:;disabled:") == .disabled)
    }
}

/// GTK's accessibility without a session bus.
struct AccessibilityBusTests {
    @Test func withoutASessionBusAccessibilityIsTurnedOffUnlessTheEnvironmentSays() {
        #expect(SessionBus.accessibilityIsUnreachable(busReachable: false, environment: [:]))
        #expect(!SessionBus.accessibilityIsUnreachable(busReachable: true, environment: [:]))
        #expect(!SessionBus.accessibilityIsUnreachable(busReachable: false, environment: ["GTK_A11Y": "atspi"]))
        #expect(
            !SessionBus.accessibilityIsUnreachable(
                busReachable: false, environment: ["AT_SPI_BUS_ADDRESS": "unix:path=/tmp/a11y"]))
    }
}
