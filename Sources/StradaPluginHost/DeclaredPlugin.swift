import Foundation

/// A plugin file the host announces without having opened it: what it provides, read from the plugin manifest
/// cache (a probe child loaded this very file before) or from its installed manifest. The host opens it with
/// `dlopen` only when a page first registers one of its components (or an action or native screen of it is
/// asked for) — as Hotwire Native loads nothing it does not use.
package struct DeclaredPlugin: Sendable, Equatable {
    package let path: String
    package let id: String
    package let version: String
    package let componentNames: [String]
    /// Whether a probe child loaded this file (as it is now) before. One that was not is probed before it is
    /// opened in the host, so a plugin that crashes while loading cannot take the host down.
    package let probed: Bool
    /// Its manifest as read when it was declared (`.some(nil)`: none lies beside it); `nil`: not read then.
    /// Its grant is made from it, so a start-up reads each manifest once.
    package var manifest: PluginManifest??

    package init(
        path: String, id: String, version: String, componentNames: [String], probed: Bool,
        manifest: PluginManifest?? = nil
    ) {
        self.path = path
        self.id = id
        self.version = version
        self.componentNames = componentNames
        self.probed = probed
        self.manifest = manifest
    }

    /// How the host learns what one plugin file provides at start-up, without running any of its code.
    package enum Declaration: Sendable, Equatable {
        /// Known without opening it: announce it, open it on first use.
        case declared(DeclaredPlugin)
        /// Nothing says what it provides: a probe child loads it and says (and the answer is cached).
        case probe
        /// Refused before any of its code runs (not trusted, an invalid manifest, another ABI).
        case refused(PluginLoadError)
        /// This very file failed to load at an earlier start (it hung, crashed, or is no plugin): refused at once,
        /// with its line, until it changes (``PluginManifestCache``).
        case failedBefore(PluginLoadError)
    }

    /// The rule, in order: a file others could have replaced is refused; a file the cache knows (it loaded in a
    /// probe, unchanged since) is declared from the cache, and one it knows failing is refused as it failed; an
    /// invalid manifest, or one naming another ABI, is refused; a manifest with an `id` and `components` declares
    /// the file (not probed yet); anything else is probed.
    package static func declaration(
        of path: String, cached: PluginStatus?, manifest: Result<PluginManifest?, PluginLoadError>,
        trust: PluginLoadError?
    ) -> Declaration {
        if let trust { return .refused(trust) }
        if let cached, let failure = PluginManifestCache.failure(cached) { return .failedBefore(failure) }
        let read: PluginManifest?? =
            switch manifest {
            case .success(let found): .some(found)
            case .failure: nil
            }
        if let cached, let id = cached.id {
            return .declared(
                DeclaredPlugin(
                    path: path, id: id, version: cached.version ?? "0.0.0", componentNames: cached.components,
                    probed: true, manifest: read))
        }
        let found: PluginManifest?
        switch manifest {
        case .failure(let error): return .refused(error)
        case .success(let read): found = read
        }
        if let refusal = found.flatMap({ PluginLoader.abiRefusal(of: $0, path: path) }) { return .refused(refusal) }
        guard let found, let id = found.id, let components = found.components, !components.isEmpty,
            PluginNames.problem(pluginID: id) == nil,
            components.allSatisfy({ PluginNames.problem(componentName: $0) == nil })
        else { return .probe }
        return .declared(
            DeclaredPlugin(
                path: path, id: id, version: found.version ?? "0.0.0", componentNames: components, probed: false,
                manifest: .some(found)))
    }

    /// The status a host reports for it (`host.ready`'s plugin list, `plugin list`).
    package var status: PluginStatus {
        PluginStatus(path: path, state: .loaded, id: id, version: version, components: componentNames)
    }
}

/// A plugins folder as the rule (``DeclaredPlugin/declaration(of:cached:manifest:trust:)``) reads it from disk: its
/// mode stat'ed once for all its files, then one `stat` and one manifest read per file, as a start-up makes a
/// thousand of these.
struct PluginFolder {
    /// The folder as the trust check names it (no trailing slash).
    let path: String
    let mode: mode_t

    /// `nil` when `directory` cannot be stat'ed or is not a folder: its plugins are refused
    /// (``PluginLoadError/unreadableDirectory(_:)``).
    init?(_ directory: String) {
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        path = ((directory as NSString).appendingPathComponent("x") as NSString).deletingLastPathComponent
        mode = info.st_mode
    }

    /// How the plugin file at `file` in this folder is declared; `nil` when it cannot be stat'ed or is a folder.
    func declaration(of file: String, cache: PluginManifestCache) -> DeclaredPlugin.Declaration? {
        var info = stat()
        guard stat(file, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return nil }
        let trust =
            PluginTrust.refusal(file, mode: info.st_mode, of: file)
            ?? PluginTrust.refusal(file, mode: mode, of: path)
            // An app requiring signed plugins never announces another, nor one changed since it was signed.
            ?? PluginSignatures.check(file, hashingLibrary: true)
        return DeclaredPlugin.declaration(
            of: file, cached: PluginManifestCache.Identity(file, info).flatMap(cache.entry(of:)),
            manifest: PluginLoader.readManifest(forPlugin: file), trust: trust)
    }
}
