import Foundation

extension IsolatedPlugin {
    /// bubblewrap's command line running the worker in `sandbox` (its data folder made first).
    func sandboxed(
        _ executable: String, _ arguments: [String], in sandbox: PluginSandbox, file: String
    ) throws(PluginLoadError) -> (String, [String]) {
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
        let home =
            ProcessInfo.processInfo.environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? NSHomeDirectory()
        let network = sandbox.network ? "granted" : "off"
        logger.info("plugin \(path) runs in the sandbox (network \(network), data folder \(sandbox.dataFolder))")
        return (bubblewrap, sandbox.arguments(running: executable, arguments, file: file, home: home))
    }
}
