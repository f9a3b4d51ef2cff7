import Foundation

extension PluginInstaller {
    /// An installed plugin that an install replaces: the file of the same name (overwritten), or another file in
    /// the folder whose manifest names the same plugin id (removed once the new file is in place, so a folder never
    /// holds two builds of one plugin). Its id and version come from its manifest, when it has one.
    package struct Replacement: Equatable, Sendable {
        package var file: String
        package var id: String?
        package var version: String?

        /// What `plugin install` prints: `replaces dev.example.pay 1.0.0 → 1.2.0 (libpay.so)`.
        package func line(newVersion: String?, removed: Bool) -> String {
            let name = (file as NSString).lastPathComponent
            let what =
                id.map { "\($0) \(version ?? "(no version)") → \(newVersion ?? "?")" } ?? "a plugin with no manifest"
            return "replaces \(what) (\(name)\(removed ? ", removed" : ""))"
        }
    }

    /// What installing plugin `id` as `fileName` into the folder replaces: the file of that name, then every other
    /// file whose manifest names `id`.
    package func replacements(ofPlugin id: String?, fileName: String) -> [Replacement] {
        let found = PluginProbe.candidates(in: directory).compactMap { path -> Replacement? in
            let manifest = PluginManifest(besidePlugin: path)
            let sameFile = (path as NSString).lastPathComponent == fileName
            guard sameFile || (id != nil && manifest?.id == id) else { return nil }
            return Replacement(file: path, id: manifest?.id, version: manifest?.version)
        }
        let isSameFile = { (old: Replacement) in (old.file as NSString).lastPathComponent == fileName }
        return found.filter(isSameFile) + found.filter { !isSameFile($0) }
    }

    /// Removes the replaced plugins other than `target` (just installed): each file with its manifest and signature.
    func removeReplaced(_ replaced: [Replacement], keeping target: String) throws {
        for old in replaced where old.file != target {
            try FileManager.default.removeItem(atPath: old.file)
            try? FileManager.default.removeItem(atPath: PluginManifest.path(forPlugin: old.file))
            try? FileManager.default.removeItem(atPath: Self.signaturePath(forPlugin: old.file))
        }
    }
}

/// One plugin `plugin install` put in place, and what it replaced.
package struct InstalledPlugin: Sendable {
    /// The plugin as installed (its ``PluginStatus/path`` in the plugins folder).
    package var status: PluginStatus
    package var replaced: [PluginInstaller.Replacement]

    /// One line per replaced plugin (`replaces …`), the file of the same name first.
    package var replacementLines: [String] {
        replaced.map { $0.line(newVersion: status.version, removed: $0.file != status.path) }
    }
}
