import Foundation

/// Refuses plugin files that someone else could have replaced: a plugin, or the folder holding it, that
/// other users (group or world) can write to. Loading it would run their code in the host.
enum PluginTrust {
    /// `nil` when `path` is safe to load; otherwise the error.
    static func check(_ path: String) -> PluginLoadError? {
        for candidate in [path, (path as NSString).deletingLastPathComponent] {
            var status = stat()
            guard stat(candidate, &status) == 0 else { continue }
            if let refusal = refusal(path, mode: status.st_mode, of: candidate) { return refusal }
        }
        return nil
    }

    /// The refusal of plugin `path` when `candidate` (the file itself or its folder), whose mode is `mode`, is
    /// writable by other users; `nil` otherwise.
    static func refusal(_ path: String, mode: mode_t, of candidate: String) -> PluginLoadError? {
        // A sticky world-writable folder (like /tmp itself) still lets others add files: refused too.
        guard mode & (S_IWGRP | S_IWOTH) != 0 else { return nil }
        let what = candidate == path ? "the file" : "its folder \(candidate)"
        return PluginLoadError(
            path: path, reason: "refused: \(what) is writable by other users (mode \(String(mode & 0o777, radix: 8)))",
            remedy: "run `chmod go-w \(candidate)` if you trust it")
    }
}
