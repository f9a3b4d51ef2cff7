import Foundation
package import StradaCore

/// What probe children learned about plugin files that loaded — id, version, ABI and components — remembered by
/// each file's identity (device, inode, size and modification time) in `$XDG_CACHE_HOME/strada/plugin-manifests`
/// (by default `~/.cache/…`). A file found here is known to load: the host announces its components without
/// probing or opening it again, and opens it only when a page first uses one of them. Any rewrite of the file
/// changes its identity, so a changed plugin is probed again.
///
/// One line per file: `device inode size mtime<TAB>path<TAB>status JSON`; the newest ``limit`` lines are kept,
/// one per path. Several hosts may write it: each writes a whole new file and renames it into place.
package struct PluginManifestCache {
    /// The most lines kept (files remembered).
    package static let limit = 5_000
    /// The cache file.
    package let file: String
    /// Status JSON text by file identity, parsed only when asked for.
    private var entries: [Identity: Substring]

    /// A file's device, inode, size, modification time and path: any rewrite of the file changes it.
    struct Identity: Hashable {
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
            guard !path.contains("\t"), !path.contains("\n") else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            seconds = info.st_mtim.tv_sec
            nanoseconds = info.st_mtim.tv_nsec
            self.path = path
        }

        /// Read from a line's key, "device inode size seconds.nanoseconds<TAB>path".
        init?(key: Substring) {
            let parts = key.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let numbers = parts[0].split(whereSeparator: { $0 == " " || $0 == "." }).map { Int64($0) }
            guard numbers.count == 5, let device = numbers[0], let inode = numbers[1], let size = numbers[2],
                let seconds = numbers[3], let nanoseconds = numbers[4]
            else { return nil }
            (self.device, self.inode, self.size) = (UInt64(device), UInt64(inode), size)
            (self.seconds, self.nanoseconds, path) = (Int(seconds), Int(nanoseconds), String(parts[1]))
        }

        var key: String { "\(device) \(inode) \(size) \(seconds).\(nanoseconds)\t\(path)" }
    }

    /// Reads the cache at `file` (nothing when it is missing or unreadable).
    package init(file: String = BaseDirectory.cache.appending("strada/plugin-manifests")) {
        self.file = file
        entries = [:]
        for line in Self.lines(of: file) {
            guard let (key, json) = Self.split(line), let identity = Identity(key: key) else { continue }
            entries[identity] = json
        }
    }

    /// What a probe said about `path` when it loaded, if the file is unchanged since; `nil` otherwise.
    package func status(of path: String) -> PluginStatus? {
        guard !entries.isEmpty, let identity = Identity(path) else { return nil }
        return status(of: identity)
    }

    /// ``status(of:)-swift.method`` for a file whose identity is known.
    func status(of identity: Identity) -> PluginStatus? {
        guard let text = entries[identity],
            let json = try? JSON(parsing: String(text)),
            var status = PluginStatus(json: json), status.state == .loaded, !status.components.isEmpty
        else { return nil }
        status.path = identity.path
        return status
    }

    /// Whether `path`, as it is now, loaded in a probe before.
    package func contains(_ path: String) -> Bool { status(of: path) != nil }

    /// Remembers `statuses` of files that loaded (others are ignored), replacing older lines for their paths.
    package mutating func remember(_ statuses: [PluginStatus]) {
        var added: [(identity: Identity, json: String)] = []
        for status in statuses where status.state == .loaded {
            guard let identity = Identity(status.path), entries[identity] == nil else { continue }
            added.append((identity, status.json.serialized(sortedKeys: true)))
        }
        guard !added.isEmpty else { return }
        let paths = Set(added.map(\.identity.path))
        // Lines other hosts wrote since this one read the file are kept; older lines of the same paths go.
        let kept = Self.lines(of: file).filter { line in
            guard let (key, _) = Self.split(line) else { return false }
            return !paths.contains(String(key.split(separator: "\t", maxSplits: 1).last ?? ""))
        }
        let lines = (kept + added.map { "\($0.identity.key)\t\($0.json)" }).suffix(Self.limit)
        for item in added { entries[item.identity] = Substring(item.json) }
        try? FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let temporary = file + ".\(getpid())"
        let contents = lines.joined(separator: "\n") + "\n"
        guard (try? contents.write(toFile: temporary, atomically: false, encoding: .utf8)) != nil else { return }
        if rename(temporary, file) != 0 { unlink(temporary) }
    }

    private static func lines(of file: String) -> [Substring] {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n")
    }

    /// A line's key (identity and path) and its JSON.
    private static func split(_ line: Substring) -> (Substring, Substring)? {
        guard let tab = line.firstIndex(of: "\t"), let second = line[line.index(after: tab)...].firstIndex(of: "\t")
        else { return nil }
        return (line[..<second], line[line.index(after: second)...])
    }
}
