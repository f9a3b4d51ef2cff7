import Foundation

/// Refuses plugin files that someone else could have replaced: a plugin, or the folder holding it, that
/// other users (group or world) can write to. Loading it would run their code in the host.
enum PluginTrust {
    /// `nil` when `path` is safe to load; otherwise the error.
    static func check(_ path: String) -> PluginLoadError? {
        for candidate in [path, (path as NSString).deletingLastPathComponent] {
            var status = stat()
            guard stat(candidate, &status) == 0 else { continue }
            // A sticky world-writable folder (like /tmp itself) still lets others add files: refused too.
            if status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
                let mode = String(status.st_mode & 0o777, radix: 8)
                let what = candidate == path ? "the file" : "its folder \(candidate)"
                return PluginLoadError(
                    path: path, reason: "refused: \(what) is writable by other users (mode \(mode))",
                    remedy: "run `chmod go-w \(candidate)` if you trust it")
            }
        }
        return nil
    }
}
