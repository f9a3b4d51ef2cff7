import Foundation

/// Why `plugin install` or `plugin remove` did nothing. One line, saying what to do.
package struct PluginInstallError: Error, CustomStringConvertible, Sendable, Equatable {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Installs plugins into a plugins directory: validates every file first (in a probe child process), then
/// copies each to a temporary name in the target folder and renames it into place, with a manifest that
/// records its id, version, components, ABI and SHA-256. Nothing is copied if any file is invalid.
package struct PluginInstaller: Sendable {
    package let directory: String
    let probe: @Sendable (String) -> PluginStatus

    package init(directory: String, probe: @escaping @Sendable (String) -> PluginStatus) {
        self.directory = directory
        self.probe = probe
    }

    /// Installs `source` (a plugin file, or a folder of them). Returns what was installed, at its new path, and
    /// what each replaced (``replacements(ofPlugin:fileName:)``: a file of another name with the same id is removed).
    package func install(_ source: String) throws(PluginInstallError) -> [InstalledPlugin] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else {
            throw PluginInstallError("\(source): no such file or folder")
        }
        let files = isDirectory.boolValue ? PluginProbe.candidates(in: source) : [source]
        guard !files.isEmpty else { throw PluginInstallError("\(source): no plugin files in this folder") }
        let statuses = files.map(probe)
        let refused = statuses.filter { $0.state != .loaded }
        guard refused.isEmpty else {
            throw PluginInstallError("nothing installed: " + refused.compactMap(\.error).joined(separator: "; "))
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        } catch {
            throw PluginInstallError("cannot create the plugins directory \(directory): \(error.localizedDescription)")
        }
        var installed: [InstalledPlugin] = []
        for status in statuses {
            let name = (status.path as NSString).lastPathComponent
            let target = (directory as NSString).appendingPathComponent(name)
            let replaced = replacements(ofPlugin: status.id, fileName: name)
            do {
                try Self.atomicCopy(from: status.path, to: target)
                // What only the author's manifest can say (actions, capabilities, origins) is kept; what the
                // plugin itself declares, and the checksum of the copy, are written afresh.
                var manifest = PluginManifest(besidePlugin: status.path) ?? PluginManifest()
                manifest.id = status.id
                manifest.version = status.version
                manifest.components = status.components
                manifest.abi = status.abi
                manifest.sha256 = try PluginManifest.sha256(ofFile: target)
                try Self.atomicWrite(manifest.json + "\n", to: PluginManifest.path(forPlugin: target))
                try? FileManager.default.removeItem(atPath: Self.signaturePath(forPlugin: target))  // not this build's
                try removeReplaced(replaced, keeping: target)
            } catch {
                throw PluginInstallError("installing \(name) into \(directory) failed: \(error.localizedDescription)")
            }
            var placed = status
            placed.path = target
            installed.append(InstalledPlugin(status: placed, replaced: replaced))
        }
        return installed
    }

    /// Removes the installed plugin whose id or file name is `name` (with or without `lib` and `.so`),
    /// and its manifest. Returns the removed plugin file.
    package func remove(_ name: String) throws(PluginInstallError) -> String {
        let candidates = PluginProbe.candidates(in: directory)
        let match = candidates.first { path in
            let file = (path as NSString).lastPathComponent
            let stem = (file as NSString).deletingPathExtension
            if file == name || stem == name || stem == "lib" + name { return true }
            guard case .success(let manifest) = PluginLoader.readManifest(forPlugin: path) else { return false }
            return manifest?.id == name
        }
        guard let path = match else {
            throw PluginInstallError(
                "no installed plugin named \(name) in \(directory); `strada-host plugin list` shows what is installed")
        }
        do {
            try FileManager.default.removeItem(atPath: path)
            let manifest = PluginManifest.path(forPlugin: path)
            if FileManager.default.fileExists(atPath: manifest) { try FileManager.default.removeItem(atPath: manifest) }
            try? FileManager.default.removeItem(atPath: Self.signaturePath(forPlugin: path))
        } catch {
            throw PluginInstallError("removing \(path) failed: \(error.localizedDescription)")
        }
        return path
    }

    static func atomicCopy(from source: String, to target: String) throws {
        let staging = stagingPath(for: target)
        try? FileManager.default.removeItem(atPath: staging)
        try FileManager.default.copyItem(atPath: source, toPath: staging)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: staging)
        try rename(staging, to: target)
    }

    static func atomicWrite(_ text: String, to target: String) throws {
        let staging = stagingPath(for: target)
        try text.write(toFile: staging, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: staging)
        try rename(staging, to: target)
    }

    /// A hidden name in the same folder (so rename is atomic and the loader skips it while incomplete).
    static func stagingPath(for target: String) -> String {
        let folder = (target as NSString).deletingLastPathComponent
        return (folder as NSString).appendingPathComponent(
            ".\((target as NSString).lastPathComponent).installing-\(getpid())")
    }

    static func rename(_ from: String, to: String) throws {
        guard Foundation.rename(from, to) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: to])
        }
    }
}
