import Crypto
package import Foundation
import StradaCore

/// Why a package was not made, signed or installed. One line, saying what to do.
package struct PluginPackageError: Error, CustomStringConvertible, Sendable, Equatable {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// A plugin package (`.strada-plugin`): one plugin's library, its manifest — which records the library's SHA-256
/// — and, once signed, `signature.json` (an Ed25519 signature of the manifest's exact bytes), in a ustar archive
/// (`tar tf` lists it). The signature covers the code through the checksum; nothing else is in a package.
package struct PluginPackage: Sendable {
    package static let fileExtension = "strada-plugin"

    /// The library's file name (`libfoo.so`) and bytes.
    package var libraryName: String
    package var library: Data
    /// The manifest's exact bytes (what the signature signs).
    package var manifestData: Data
    package var signature: PluginSigning.Signature?

    /// The manifest, read from ``manifestData``.
    package var manifest: PluginManifest {
        get throws(PluginPackageError) {
            do {
                return try PluginManifest(json: String(decoding: manifestData, as: UTF8.self))
            } catch {
                throw PluginPackageError("its manifest is malformed: \(error.reason)")
            }
        }
    }

    /// A package of the library at `path` with `manifest`, whose checksum is set to the library's.
    package init(library path: String, manifest: PluginManifest) throws(PluginPackageError) {
        let name = (path as NSString).lastPathComponent
        guard name.hasSuffix(".so"), let bytes = FileManager.default.contents(atPath: path) else {
            throw PluginPackageError("\(path): not a readable plugin library (.so)")
        }
        var manifest = manifest
        manifest.sha256 = SHA256.hash(data: bytes).hexDigits
        libraryName = name
        library = bytes
        manifestData = Data((manifest.json + "\n").utf8)
    }

    /// Reads a package's bytes; the error names what is wrong (never a half-read package).
    package init(reading data: Data) throws(PluginPackageError) {
        let archive: TarArchive
        do {
            archive = try TarArchive(reading: data)
        } catch {
            throw PluginPackageError("not a plugin package: \(error.description)")
        }
        let libraries = archive.files.filter { $0.name.hasSuffix(".so") }
        let unknown = archive.files.map(\.name).filter {
            !$0.hasSuffix(".so") && $0 != "manifest.json" && $0 != "signature.json"
        }
        guard libraries.count == 1, unknown.isEmpty, let manifest = archive.file("manifest.json") else {
            throw PluginPackageError(
                "not a plugin package: it must hold one .so, manifest.json and optionally signature.json (it holds "
                    + archive.files.map(\.name).joined(separator: ", ") + ")")
        }
        libraryName = libraries[0].name
        library = libraries[0].data
        manifestData = manifest
        if let signature = archive.file("signature.json") {
            guard let parsed = PluginSigning.Signature(json: signature) else {
                throw PluginPackageError("its signature.json is malformed")
            }
            self.signature = parsed
        }
    }

    /// The package's archive bytes.
    package var data: Data {
        var files = [(name: "manifest.json", data: manifestData), (name: libraryName, data: library)]
        if let signature { files.append((name: "signature.json", data: signature.json)) }
        return TarArchive(files: files).data
    }

    /// What verification found: who signed it (their name in the trusted keys), or that it is unsigned.
    package enum Publisher: Equatable, Sendable {
        case signed(name: String, key: String)
        case unsigned
    }

    /// Checks that the library is the one the manifest records, and the signature: valid, and by a key in
    /// `trusted`; an unsigned package passes only when signatures are not `required`. The error says why not.
    package func verify(trusted: TrustedKeys, required: Bool) throws(PluginPackageError) -> Publisher {
        let manifest = try self.manifest
        guard let recorded = manifest.sha256 else {
            throw PluginPackageError("its manifest records no SHA-256 of the library (pack it with `plugin pack`)")
        }
        guard SHA256.hash(data: library).hexDigits == recorded else {
            throw PluginPackageError("tampered: \(libraryName) is not the library its manifest records (SHA-256)")
        }
        guard let signature else {
            if required {
                throw PluginPackageError(
                    "unsigned, and signatures are required: ask its publisher for a signed package")
            }
            return .unsigned
        }
        guard signature.isValid(for: manifestData) else {
            throw PluginPackageError("tampered: the signature does not match its manifest")
        }
        guard let name = trusted.name(of: signature.publicKey) else {
            throw PluginPackageError(
                "signed by a key you do not trust (\(signature.publicKey)): if you trust its publisher, "
                    + "`strada-host plugin trust add NAME \(signature.publicKey)`")
        }
        return .signed(name: name, key: signature.publicKey)
    }
}
