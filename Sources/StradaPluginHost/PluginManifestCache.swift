import Foundation
package import StradaCore

/// What probe children learned about plugin files — id, version, ABI and components of those that loaded, and why
/// the others did not — remembered by each file's identity (device, inode, size and modification time) in
/// `$XDG_CACHE_HOME/strada/plugin-manifests` (by default `~/.cache/…`). A file found here loading is known to
/// load: the host announces its components without probing or opening it again, and opens it only when a page
/// first uses one of them. A file found here failing (it hung, crashed, is no plugin or one of another ABI: see
/// ``PluginLoadError/isPropertyOfTheFile``) is refused at once with its line, without waiting for a probe again.
/// Any rewrite of the file changes its identity, so a changed plugin is probed again.
///
/// One line per file: `device inode size mtime<TAB>path<TAB>status JSON`; the newest ``limit`` lines are kept,
/// one per path. Several hosts may write it: each writes a whole new file and renames it into place.
package struct PluginManifestCache {
    /// The most lines kept (files remembered).
    package static let limit = 5_000
    /// The cache file.
    package let file: String
    /// Status JSON text by the key of its line (``Identity/key``), parsed only when asked for. Lines are kept as
    /// the text they are: a start-up reads up to ``limit`` of them and looks up only the files it has.
    private var entries: [String: String]

    /// A file's device, inode, size, modification time and path: any rewrite of the file changes it.
    struct Identity {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
        var path: String

        /// The file at `path` as it is now; `nil` when there is none or its path cannot be written on one line.
        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self.init(path, info)
        }

        /// The file at `path` whose `stat` is `info`.
        init?(_ path: String, _ info: stat) {
            // Bytes, not Foundation's `contains` (a `range(of:)` each): a start-up makes a thousand of these.
            guard !path.utf8.contains(where: { $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") }) else {
                return nil
            }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            seconds = info.st_mtim.tv_sec
            nanoseconds = info.st_mtim.tv_nsec
            self.path = path
        }

        /// A line's key, "device inode size seconds.nanoseconds<TAB>path": the one form lines are written in, so
        /// a file is looked up by its key's text.
        var key: String { "\(device) \(inode) \(size) \(seconds).\(nanoseconds)\t\(path)" }
    }

    /// Reads the cache at `file` (nothing when it is missing or unreadable).
    package init(file: String = BaseDirectory.cache.appending("strada/plugin-manifests")) {
        self.file = file
        entries = [:]
        for line in Self.lines(of: file) { entries[line.key] = line.json }
    }

    /// What a probe said about `path` when it loaded, if the file is unchanged since; `nil` otherwise.
    package func status(of path: String) -> PluginStatus? {
        guard !entries.isEmpty, let identity = Identity(path) else { return nil }
        return status(of: identity)
    }

    /// ``status(of:)-swift.method`` for a file whose identity is known.
    func status(of identity: Identity) -> PluginStatus? {
        guard let status = entry(of: identity), status.state == .loaded else { return nil }
        return status
    }

    /// Why `path`, as it is now, failed to load before (see ``remembersFailure(_:)``); `nil` when it did not.
    package func failure(of path: String) -> PluginLoadError? {
        guard !entries.isEmpty, let identity = Identity(path), let status = entry(of: identity) else { return nil }
        return Self.failure(status)
    }

    /// What is remembered of the file of `identity`: it loaded (with its components), or why it did not.
    func entry(of identity: Identity) -> PluginStatus? {
        guard let text = entries[identity.key],
            let json = try? JSON(parsing: text),
            var status = PluginStatus(json: json),
            status.state == .loaded ? !status.components.isEmpty : Self.remembersFailure(status)
        else { return nil }
        status.path = identity.path
        return status
    }

    /// The error a remembered failure is refused with: its own reason, and a remedy that says why it is not tried.
    static func failure(_ status: PluginStatus) -> PluginLoadError? {
        guard status.state != .loaded, let error = status.loadError else { return nil }
        return PluginLoadError(
            path: status.path, reason: error.reason,
            remedy: error.remedy + " (it failed so at an earlier start: not tried again until the file changes)")
    }

    /// Whether a failed `status` is remembered: a crash, a hang or an exit while loading, and the refusals that
    /// only a new file can change (``PluginLoadError/isPropertyOfTheFile``). A refusal that may pass on another
    /// day with the same file (its entry point refused, a library it needs is missing, its folder's permissions,
    /// the probe could not start) is not: it is cheap to try again.
    static func remembersFailure(_ status: PluginStatus) -> Bool {
        switch status.state {
        case .loaded: false
        case .crashed: true
        case .error: status.loadError?.isPropertyOfTheFile == true
        }
    }

    /// Whether `path`, as it is now, loaded in a probe before.
    package func contains(_ path: String) -> Bool { status(of: path) != nil }

    /// Remembers `statuses` of files that loaded, and of those that failed in a way a new start would not change
    /// (``remembersFailure(_:)``; others are ignored), replacing older lines for their paths.
    package mutating func remember(_ statuses: [PluginStatus]) {
        var added: [(identity: Identity, json: String)] = []
        for status in statuses where status.state == .loaded || Self.remembersFailure(status) {
            guard let identity = Identity(status.path), entries[identity.key] == nil else { continue }
            added.append((identity, status.json.serialized(sortedKeys: true)))
        }
        guard !added.isEmpty else { return }
        for item in added { entries[item.identity.key] = item.json }
        try? FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // One writer at a time (hosts of several apps, a test run's hosts): reading, merging and renaming under the
        // lock, no host's new lines are lost to another's rename. Without the lock (it cannot be made), as before.
        let lock = open(file + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if lock >= 0 { flock(lock, LOCK_EX) }
        defer { if lock >= 0 { close(lock) } }  // closing it unlocks
        let paths = Set(added.map(\.identity.path))
        // Lines other hosts wrote since this one read the file are kept; older lines of the same paths go.
        let kept = Self.lines(of: file).filter { !paths.contains(Self.path(ofKey: $0.key)) }.map {
            "\($0.key)\t\($0.json)"
        }
        let lines = (kept + added.map { "\($0.identity.key)\t\($0.json)" }).suffix(Self.limit)
        let temporary = file + ".\(getpid())"
        let contents = lines.joined(separator: "\n") + "\n"
        guard (try? contents.write(toFile: temporary, atomically: false, encoding: .utf8)) != nil else { return }
        if rename(temporary, file) != 0 { unlink(temporary) }
    }

    /// The lines of `file` (none when it is missing or unreadable), each as its key and its JSON; a line without two
    /// tabs is left out. Read as bytes: a start-up reads thousands of lines, and splitting them as Swift strings (by
    /// Character) cost ~20 µs a line.
    private static func lines(of file: String) -> [(key: String, json: String)] {
        guard let data = FileManager.default.contents(atPath: file) else { return [] }
        return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            let bytes = bytes.bindMemory(to: UInt8.self)
            var lines: [(key: String, json: String)] = []
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                defer { start = end + 1 }
                guard let tab = bytes[start..<end].firstIndex(of: UInt8(ascii: "\t")),
                    let second = bytes[(tab + 1)..<end].firstIndex(of: UInt8(ascii: "\t"))
                else { continue }
                let text = { (range: Range<Int>) in String(decoding: bytes[range], as: UTF8.self) }
                lines.append((text(start..<second), text((second + 1)..<end)))
            }
            return lines
        }
    }

    /// The path in a line's key (after its first tab): only `remember` needs it, not a start-up's reading.
    private static func path(ofKey key: String) -> String {
        key.firstIndex(of: "\t").map { String(key[key.index(after: $0)...]) } ?? ""
    }
}
