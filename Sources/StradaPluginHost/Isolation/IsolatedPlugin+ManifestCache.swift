/// Where what a worker's hello says it loaded goes: a plugin file that loaded in a worker is known to load, as
/// one that loaded in a probe child is, so the plugin manifest cache keeps it (``PluginRegistry/rememberLoaded(_:)``)
/// and the next start declares it without starting anything.
package typealias RememberLoaded = @MainActor (PluginStatus) -> Void

extension IsolatedPlugin {
    /// A worker started for `purpose` said hello (the id and version are this plugin's now; `components`: the
    /// names it provides): what it loaded goes to ``remember`` when the file may not be in the cache yet — a
    /// file started with the host or added while it runs (nothing declared it), and every new build. Not after
    /// a restart (the same file, remembered when its first worker loaded it) nor on a declared plugin's first use
    /// (the cache or its installed manifest declared it already).
    func rememberHello(_ purpose: Purpose, components: [String]) {
        switch purpose {
        case .start, .reload:
            remember?(
                PluginStatus(path: path, state: .loaded, id: id, version: version, abi: abi, components: components))
        case .restart, .firstUse: break
        }
    }
}
