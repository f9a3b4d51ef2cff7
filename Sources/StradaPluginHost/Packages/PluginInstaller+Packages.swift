import Foundation

extension PluginInstaller {
    /// Installs a plugin package: it is verified (the library is the one its manifest records; signed by a
    /// key in `trusted`, or unsigned when signatures are not `required`), its library is validated in a probe
    /// child and must be the plugin its manifest names, then `confirm` is asked with one line saying what it is,
    /// who signed it and what it may use, and what it replaces (``replacements(ofPlugin:fileName:)``), on lines of
    /// their own after the first. Only then are the library, its manifest as packed (what was signed)
    /// and its signature copied into the folder. On any refusal nothing is copied.
    package func install(
        package: PluginPackage, trusted: TrustedKeys, required: Bool, confirm: (String) -> Bool
    ) throws(PluginInstallError) -> InstalledPlugin {
        func refuse(_ reason: String) -> PluginInstallError { PluginInstallError("nothing installed: \(reason)") }
        let publisher: PluginPackage.Publisher
        let manifest: PluginManifest
        do {
            publisher = try package.verify(trusted: trusted, required: required)
            manifest = try package.manifest
        } catch {
            throw refuse(error.description)
        }
        // The library is validated where nobody else can write: a private folder of this process.
        let staging = NSTemporaryDirectory() + "strada-package-\(getpid())-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let library = (staging as NSString).appendingPathComponent(package.libraryName)
        do {
            try FileManager.default.createDirectory(
                atPath: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try package.library.write(to: URL(fileURLWithPath: library))
            try package.manifestData.write(to: URL(fileURLWithPath: PluginManifest.path(forPlugin: library)))
        } catch {
            throw refuse("cannot unpack it: \(error.localizedDescription)")
        }
        var status = probe(library)
        guard status.state == .loaded else { throw refuse(status.error ?? "its library does not load") }
        if let id = manifest.id, id != status.id {
            throw refuse("its manifest names plugin \(id), its library is \(status.id ?? "?")")
        }
        let signer =
            switch publisher {
            case .signed(let name, _): "signed by \(name)"
            case .unsigned: "UNSIGNED"
            }
        let target = (directory as NSString).appendingPathComponent(package.libraryName)
        let replaced = replacements(ofPlugin: status.id, fileName: package.libraryName)
        let replacing = InstalledPlugin(
            status: PluginStatus(path: target, state: .loaded, version: status.version),
            replaced: replaced)
        let summary =
            "\(status.id ?? "?") \(status.version ?? "?") (\(status.components.joined(separator: ", "))), \(signer), "
            + "may use: \(status.grant()?.summary ?? "-"), into \(directory)"
        guard confirm(([summary] + replacing.replacementLines).joined(separator: "\n")) else {
            throw refuse("not confirmed")
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            try Self.atomicCopy(from: library, to: target)
            try Self.atomicWrite(
                String(decoding: package.manifestData, as: UTF8.self), to: PluginManifest.path(forPlugin: target))
            let signature = Self.signaturePath(forPlugin: target)
            if let data = package.signature?.json {
                try Self.atomicWrite(String(decoding: data, as: UTF8.self), to: signature)
            } else {
                try? FileManager.default.removeItem(atPath: signature)
            }
            try removeReplaced(replaced, keeping: target)
        } catch {
            throw PluginInstallError("installing \(package.libraryName) into \(directory) failed: \(error)")
        }
        status.path = target
        return InstalledPlugin(status: status, replaced: replaced)
    }

    /// Where an installed package's signature is kept: `libfoo.so` → `libfoo.signature.json`.
    package static func signaturePath(forPlugin plugin: String) -> String {
        PluginManifest.sibling(ofPlugin: plugin, extension: "signature.json")
    }
}
