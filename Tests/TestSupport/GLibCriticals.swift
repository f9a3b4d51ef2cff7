import Foundation

/// The lines of a host's standard error that mean a bug even when nothing looks wrong: a GLib, GTK or libadwaita
/// CRITICAL (a failed precondition, most often a call on a freed or wrong widget) or a GObject, GTK or GDK
/// WARNING. ``HostProcess`` records one issue per such line in the test that started the host
/// (docs/engine.md, "GLib criticals under test").
public enum GLibCriticals {
    /// The lines the engine prints that we cannot avoid, listed with their reasons in docs/engine.md: each
    /// exactly as ``reported(in:except:)`` compares it — `Domain-LEVEL **: message`, without GLib's
    /// `(program:pid): ` and time. Nothing else is filtered.
    public static let unavoidable: Set<String> = [
        // WebKit's network process (libsoup 3.2, Debian 12) when a server closes a connection without answering.
        "libsoup-CRITICAL **: async_send_request_return_result: assertion 'item->task != NULL' failed"
    ]

    /// The domains whose WARNINGs count (a CRITICAL counts in every domain, and without one).
    public static let warningDomains: Set<String> = [
        "GLib", "GLib-GObject", "GLib-GIO", "Gtk", "Gdk", "Gsk", "Adwaita",
    ]

    /// The lines of `text` that are criticals or watched warnings, as printed, except those whose
    /// ``normalized(_:)`` form is in `allowed`.
    public static func reported(in text: String, except allowed: Set<String> = unavoidable) -> [String] {
        text.split(whereSeparator: \.isNewline).map(String.init).filter { line in
            guard let form = normalized(line) else { return false }
            return !allowed.contains(form)
        }
    }

    /// `Domain-LEVEL **: message` for a GLib log line of a counted level and domain (`LEVEL **: message`
    /// without a domain), `nil` for any other line. GLib writes `(program:pid): Domain-LEVEL **: HH:MM:SS.mmm:
    /// message` (`** ` in front when there is no domain); the program, pid and time differ from run to run.
    public static func normalized(_ line: String) -> String? {
        guard let match = line.firstMatch(of: pattern) else { return nil }
        let domain = match.output.domain.map(String.init)
        let level = String(match.output.level)
        guard level == "CRITICAL" || domain.map(warningDomains.contains) == true else { return nil }
        return (domain.map { $0 + "-" } ?? "") + level + " **: " + match.output.message
    }

    // swift-format-ignore: NeverUseForceTry
    // A literal pattern: it compiles or every test fails at once.
    nonisolated(unsafe) private static let pattern = try! Regex(
        #"(?:\([^()\s]*:\d+\): )?(?:(?<domain>[A-Za-z][A-Za-z0-9_-]*?)-)?(?<level>CRITICAL|WARNING) \*\*: "#
            + #"(?:\d\d:\d\d:\d\d\.\d{3}: )?(?<message>.*)$"#,
        as: (Substring, domain: Substring?, level: Substring, message: Substring).self)
}
