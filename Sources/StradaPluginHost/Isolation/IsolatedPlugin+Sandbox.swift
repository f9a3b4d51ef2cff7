import Foundation

extension IsolatedPlugin {
    /// bubblewrap's command line running the worker in `sandbox` (its data folder made first), and the read end of
    /// a pipe holding its seccomp filter (close-on-exec: the caller passes it to this spawn only, then closes it).
    /// Where no filter can be installed the plugin does not run: the sandbox is what its user was promised.
    func sandboxed(
        _ executable: String, _ arguments: [String], in sandbox: PluginSandbox, file: String
    ) throws(PluginLoadError) -> (String, [String], filter: Int32) {
        guard let bubblewrap = PluginSandbox.bubblewrap else {
            throw PluginLoadError(
                path: path, reason: "its sandbox needs bubblewrap, which is not installed",
                remedy: "install it (apt install bubblewrap), or run the plugin as a plain process")
        }
        do {
            try FileManager.default.createDirectory(
                atPath: sandbox.dataFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw PluginLoadError(
                path: path, reason: "its data folder \(sandbox.dataFolder) cannot be made (\(error))",
                remedy: "check the folder's permissions")
        }
        let remedy = "run it as a plain process (\"isolation\": \"process\" in the app's grants) only if you trust it"
        guard let filter = SeccompFilter.forHost else {
            throw PluginLoadError(
                path: path, reason: "its sandbox's seccomp filter does not know this architecture's calls",
                remedy: remedy)
        }
        if let refusal = SeccompFilter.kernelRefusal() {
            throw PluginLoadError(path: path, reason: "its sandbox needs a seccomp filter: \(refusal)", remedy: remedy)
        }
        guard let descriptor = Self.pipe(holding: filter.bytes) else {
            throw PluginLoadError(
                path: path,
                reason: "its seccomp filter cannot be handed to bubblewrap (\(String(cString: strerror(errno))))",
                remedy: "check the host's open-file limit")
        }
        let home =
            ProcessInfo.processInfo.environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? NSHomeDirectory()
        let network = sandbox.network ? "granted" : "off"
        logger.info("plugin \(path) runs in the sandbox (network \(network), data folder \(sandbox.dataFolder))")
        let command = sandbox.arguments(running: executable, arguments, file: file, home: home, seccomp: descriptor)
        return (bubblewrap, command, descriptor)
    }

    /// The read end of a new pipe (close-on-exec, numbered 3 or above) holding `bytes`, its write end closed;
    /// `nil` with `errno` set when one cannot be made. `bytes` must fit the pipe's buffer (64 KiB).
    static func pipe(holding bytes: [UInt8]) -> Int32? {
        var ends: [Int32] = [-1, -1]
        guard WorkerConnection.pipe2(&ends, O_CLOEXEC) == 0 else { return nil }
        let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress!, $0.count) }
        close(ends[1])
        var reader = ends[0]
        if written == bytes.count, reader < 3 {  // 0 to 2 are the worker's standard streams
            reader = fcntl(ends[0], F_DUPFD_CLOEXEC, 3)
            close(ends[0])
        }
        guard written == bytes.count, reader >= 0 else {
            let code = written == bytes.count ? errno : EIO
            if reader >= 0 { close(reader) }
            errno = code
            return nil
        }
        return reader
    }
}
