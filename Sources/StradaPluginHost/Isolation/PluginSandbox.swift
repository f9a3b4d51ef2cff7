import Foundation

/// A worker run inside bubblewrap (`bwrap`, which WebKit's own sandbox already needs): the system read-only, an
/// empty home, `/tmp` and `/run` (private tmpfs: writable, but seen by nothing else and gone with the worker), no
/// other process visible (its own PID namespace), no network unless the plugin is granted `network` (its own
/// network namespace: only its own loopback), and one folder whose writes last, its data folder, which is also
/// its `HOME`. It ends with the host (`--die-with-parent`), and runs under a seccomp filter
/// (``SeccompFilter``) that denies the system calls a plugin has no business making.
package struct PluginSandbox: Sendable, Equatable {
    /// Whether the plugin keeps the host's network.
    package var network: Bool
    /// The one folder whose writes outlive the worker (made by the host before the worker starts).
    package var dataFolder: String

    package init(network: Bool, dataFolder: String) {
        self.network = network
        self.dataFolder = dataFolder
    }

    /// bubblewrap's path, when it is installed.
    package static var bubblewrap: String? {
        ["/usr/bin/bwrap", "/bin/bwrap"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The data folder of the plugin at `path`: `$XDG_DATA_HOME/strada/plugin-data/<file name without .so>`.
    package static func dataFolder(forPluginAt path: String, environment: [String: String]? = nil) -> String {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return BaseDirectory.data.appending("strada/plugin-data/\(stem)", environment: environment)
    }

    /// `bwrap`'s arguments to run `executable arguments` for the plugin file `file` (which, with the executable's
    /// folder, stays readable even where it lies under the hidden home or /tmp), under the seccomp program bwrap
    /// reads from the inherited descriptor `seccomp` when one is given.
    package func arguments(
        running executable: String, _ arguments: [String], file: String, home: String, seccomp: Int32? = nil
    ) -> [String] {
        var result = [
            "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", home,
            "--tmpfs", "/run",
        ]
        // What the worker must still read, put back over the empty home and /tmp (read-only).
        var readable: [String] = []
        for folder in [
            (executable as NSString).deletingLastPathComponent, (file as NSString).deletingLastPathComponent,
        ]
        where !readable.contains(folder) {
            readable.append(folder)
        }
        for folder in readable where Self.isUnder(folder, [home, "/tmp", "/run"]) {
            result += ["--ro-bind", folder, folder]
        }
        result += ["--bind", dataFolder, dataFolder, "--setenv", "HOME", dataFolder, "--chdir", dataFolder]
        result += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
        if !network { result.append("--unshare-net") }
        if let seccomp { result += ["--seccomp", String(seccomp)] }
        result += ["--die-with-parent", "--new-session", "--", executable] + arguments
        return result
    }

    static func isUnder(_ path: String, _ folders: [String]) -> Bool {
        folders.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }
}
