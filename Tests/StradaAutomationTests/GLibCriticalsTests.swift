import Foundation
import TestSupport
import Testing

/// The end-to-end suites' stderr check (issue 36 item 2): which lines of a host's standard error fail its test,
/// and that a host printing one does fail it. A shell script stands in for `strada-host`.
@Suite(.temporaryDirectories)
struct GLibCriticalsTests {
    static let freedTitle =
        "(strada-host:4242): Adwaita-CRITICAL **: 23:11:05.918: adw_window_title_set_title: assertion "
        + "'ADW_IS_WINDOW_TITLE (self)' failed"

    @Test(arguments: [
        freedTitle,
        "(strada-host:4242): GLib-GObject-WARNING **: 23:11:05.920: invalid cast from 'GtkImage' to 'AdwWindowTitle'",
        "(strada-host:4242): Gtk-CRITICAL **: 23:11:06.001: gtk_widget_unparent: assertion 'GTK_IS_WIDGET' failed",
        "(strada-host:4242): Gtk-WARNING **: 23:11:06.002: Broken accounting of active state for widget",
        "(WebKitWebProcess:77): GLib-CRITICAL **: 23:11:06.100: g_source_remove: assertion 'tag > 0' failed",
        "** (strada-host:4242): CRITICAL **: 23:11:06.200: a critical without a domain",
        "(process:4242): Gdk-WARNING **: a warning without a time",
    ])
    func aCriticalOrAGObjectWarningIsReported(line: String) {
        let text = "strada-host: loaded 0 plugins\n" + line + "\n{\"event\": \"host.ready\"}\n"
        #expect(GLibCriticals.reported(in: text, except: []) == [line])
    }

    @Test(arguments: [
        "(strada-host:4242): WebKit-WARNING **: 23:11:05.918: not a GLib, GTK or GObject domain",
        "(strada-host:4242): Gtk-DEBUG: 23:11:05.918: only CRITICAL and WARNING count",
        "warning: CRITICAL ** in a sentence is not GLib's format",
        "strada-host: a page asked for the camera",
    ])
    func otherLinesAreNotReported(line: String) {
        #expect(GLibCriticals.reported(in: line, except: []).isEmpty)
    }

    @Test func aListedEngineLineIsNotReportedButOneThatDiffersIs() throws {
        let listed = "Adwaita-CRITICAL **: adw_window_title_set_title: assertion 'ADW_IS_WINDOW_TITLE (self)' failed"
        #expect(GLibCriticals.normalized(Self.freedTitle) == listed, "program, pid and time are left out")
        #expect(GLibCriticals.reported(in: Self.freedTitle, except: [listed]).isEmpty)
        let other = Self.freedTitle.replacingOccurrences(of: "set_title", with: "set_subtitle")
        #expect(GLibCriticals.reported(in: other, except: [listed]) == [other], "only the exact text is filtered")
        // The network process's line when a server hangs up (docs/engine.md), as it was printed in a run.
        let hangUp =
            "(process:10116): libsoup-CRITICAL **: 01:00:00.505: async_send_request_return_result: "
            + "assertion 'item->task != NULL' failed"
        #expect(GLibCriticals.reported(in: hangUp).isEmpty)
        for line in GLibCriticals.unavoidable {
            #expect(
                GLibCriticals.normalized("(strada-host:1): " + line) == line, "a listed line is in the compared form")
        }
    }

    @Test func aHostThatPrintsACriticalFailsItsTestQuotingTheLine() async throws {
        let script = (FileManager.default.temporaryDirectory.path as NSString)
            .appendingPathComponent("fake-host-\(UUID().uuidString)")
        try """
        #!/bin/sh
        echo '{"event": "host.ready", "components": []}'
        echo "\(Self.freedTitle)" >&2
        read line
        """.write(toFile: script, atomically: true, encoding: .utf8)
        #expect(chmod(script, 0o755) == 0)
        try await withKnownIssue {
            let host = try HostProcess(page: "about:blank", arguments: [], executable: script)
            try await host.waitFor(.hostReady)
            try host.send(["command": "quit"])
            #expect(try await host.waitForExit() == 0)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasSuffix("\n" + Self.freedTitle) }
        }
    }

    @Test func aHostThatPrintsNoCriticalPasses() async throws {
        let script = (FileManager.default.temporaryDirectory.path as NSString)
            .appendingPathComponent("fake-host-\(UUID().uuidString)")
        try """
        #!/bin/sh
        echo '{"event": "host.ready", "components": []}'
        echo "strada-host: an ordinary line" >&2
        echo "(strada-host:4242): WebKit-WARNING **: 23:11:05.918: not a domain that counts" >&2
        read line
        """.write(toFile: script, atomically: true, encoding: .utf8)
        #expect(chmod(script, 0o755) == 0)
        let host = try HostProcess(page: "about:blank", arguments: [], executable: script)
        try await host.waitFor(.hostReady)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        #expect(host.standardError.contains("an ordinary line"), "standard error was read to its end")
    }
}
