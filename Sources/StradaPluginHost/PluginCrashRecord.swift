import CStradaCrash
import Foundation

/// Plugin files that crashed the host while it was calling them in its process, by the file's identity — the
/// record the host's fatal-signal handler (the `CStradaCrash` target) appends to, in
/// `$XDG_CACHE_HOME/strada/plugin-crashes` (by default `~/.cache/…`). A file found here, unchanged since, runs in a
/// worker process at the next start (where a crash is survivable; see ``PlacementRules/crashedInProcess``), with
/// one line saying so, until a new build — any rewrite of the file — arrives.
///
/// One line per crash, written by the handler with `open`, `write` and `close` only: the file's identity as the
/// plugin manifest cache writes it (`device inode size mtime<TAB>path`, formatted when the plugin was loaded), a
/// tab and the call it crashed in.
package struct PluginCrashRecord: Sendable {
    /// The record file.
    package let file: String
    /// The call each crashed file was in, by its line's identity key (``PluginManifestCache/Identity/key``).
    private var calls: [String: String] = [:]

    /// The record file of this user (the cache folder).
    package static var defaultFile: String { BaseDirectory.cache.appending("strada/plugin-crashes") }

    /// Reads the record at `file` (nothing when it is missing or unreadable).
    package init(file: String = PluginCrashRecord.defaultFile) {
        self.file = file
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, !fields[2].isEmpty else { continue }
            calls["\(fields[0])\t\(fields[1])"] = String(fields[2])
        }
    }

    /// Drops the lines of files that changed or are gone since they crashed (no start can match them again), so
    /// a record that names no current file is empty and costs a start-up nothing; rewrites the file (a new one
    /// renamed into place) only when a line went.
    package mutating func forgetChangedFiles() {
        let kept = calls.filter { key, _ in
            let path = key.firstIndex(of: "\t").map { String(key[key.index(after: $0)...]) } ?? ""
            return PluginManifestCache.Identity(path)?.key == key
        }
        guard kept.count < calls.count else { return }
        calls = kept
        let temporary = file + ".\(getpid())"
        let text = kept.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)\n" }.joined()
        guard (try? text.write(toFile: temporary, atomically: false, encoding: .utf8)) != nil else { return }
        if rename(temporary, file) != 0 { unlink(temporary) }
    }

    /// The call the file at `path` crashed the host in, if it did and is unchanged since; `nil` otherwise.
    package func crash(of path: String) -> String? {
        guard !calls.isEmpty, let identity = PluginManifestCache.Identity(path) else { return nil }
        return calls[identity.key]
    }

    /// The plugin files in `directories` that crashed the host (unchanged since), each with the line that says it
    /// runs in a worker for that reason. Lists the folders only when the record names some file.
    package func crashed(inFolders directories: [String]) -> [(path: String, line: String)] {
        guard !calls.isEmpty else { return [] }
        return crashed(among: directories.flatMap(PluginProbe.candidateNames(in:)))
    }

    /// Of `paths`, those that crashed the host (unchanged since), each with the line that says it runs in a worker
    /// for that reason.
    func crashed(among paths: [String]) -> [(path: String, line: String)] {
        paths.compactMap { path in
            crash(of: path).map { call in
                (
                    path,
                    """
                    plugin \(path) crashed the host (in \(call)) at an earlier start: it runs in a worker process, \
                    where a crash is survivable, until its file changes
                    """
                )
            }
        }
    }

    /// The end of the handler's line, after "plugin <id> (<file>) crashed (signal N) in <call>".
    static let lineTail =
        "; the host stops — from its next start the plugin runs in a worker process until its file changes"

    /// Installs the host's fatal-signal handler, appending to `file` (its folder made now). Once, before any plugin
    /// is loaded; only the host calls it (not probes or workers, whose crash their parent reports).
    package static func installHandler(file: String = PluginCrashRecord.defaultFile) {
        try? FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = strada_crash_install(file, lineTail)
    }
}

/// What the crash handler writes for one plugin (``PluginCrashRecord``), formatted once when it is loaded: its
/// name for the line, and its file's identity for the record. Kept for the life of the process, as the plugin is.
struct CrashSlotPlugin: @unchecked Sendable {  // points at immutable memory that is never freed
    let pointer: UnsafePointer<strada_crash_plugin>

    /// For the plugin `name` ("dev.example.counter (/path/libcounter.so)", or only the path before its entry point
    /// has said its id) loaded from the file at `source` (the watched file, not a staged copy).
    init(name: String, source: String) {
        let record = PluginManifestCache.Identity(source).map { $0.key + "\t" } ?? ""
        let slot = UnsafeMutablePointer<strada_crash_plugin>.allocate(capacity: 1)
        slot.initialize(
            to: strada_crash_plugin(
                name: strdup(name), name_length: name.utf8.count, record: strdup(record),
                record_length: record.utf8.count))
        pointer = UnsafePointer(slot)
    }

    /// Runs `body` — a call into the plugin's code — with the crash slot saying the main thread is in `call` of
    /// this plugin: two stores before, two after (see strada_crash.h).
    @inline(__always)
    func calling<Result, Failure: Error>(
        _ call: StaticString, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // A string literal's bytes: NUL-terminated, and in the binary for the life of the process.
        let previous = strada_crash_enter(
            pointer, UnsafeRawPointer(call.utf8Start).assumingMemoryBound(to: CChar.self))
        defer { strada_crash_leave(previous) }
        return try body()
    }
}
