import Crypto
import Foundation
package import StradaCore

/// What `plugin inspect FILE.strada-plugin` says about a package before anything is installed: what its manifest
/// declares (id, version, components, capabilities, origins), whether its library is the one the manifest records
/// (SHA-256), and who signed it — a key the user trusts, one they do not, a signature that does not hold, or none.
/// Nothing is unpacked and none of the package's code runs.
package struct PackageInspection: Sendable {
    /// The library's checksum against the manifest's.
    package enum Checksum: Equatable, Sendable {
        case matches(String)
        case mismatch(recorded: String, actual: String)
        /// The manifest records none (not packed with `plugin pack`).
        case missing(actual: String)
    }

    /// The signature, checked against the manifest's bytes and the trusted keys.
    package enum Signer: Equatable, Sendable {
        /// Valid, by the key the user trusts under `name`.
        case trusted(name: String, key: String)
        /// Valid, by a key the user does not trust.
        case untrusted(key: String)
        /// It does not verify: the manifest (or the signature) was changed after signing.
        case invalid(key: String)
        case unsigned
    }

    package var libraryName: String
    package var librarySize: Int
    /// `nil` when the manifest is malformed (``manifestError`` says how).
    package var manifest: PluginManifest?
    package var manifestError: String?
    package var checksum: Checksum
    package var signer: Signer

    /// Inspects `package` against the `trusted` keys.
    package init(_ package: PluginPackage, trusted: TrustedKeys) {
        libraryName = package.libraryName
        librarySize = package.library.count
        do {
            manifest = try package.manifest
        } catch {
            manifestError = error.description
        }
        let actual = SHA256.hash(data: package.library).hexDigits
        switch manifest?.sha256 {
        case nil: checksum = .missing(actual: actual)
        case let recorded? where recorded == actual: checksum = .matches(actual)
        case let recorded?: checksum = .mismatch(recorded: recorded, actual: actual)
        }
        if let signature = package.signature {
            if !signature.isValid(for: package.manifestData) {
                signer = .invalid(key: signature.publicKey)
            } else if let name = trusted.name(of: signature.publicKey) {
                signer = .trusted(name: name, key: signature.publicKey)
            } else {
                signer = .untrusted(key: signature.publicKey)
            }
        } else {
            signer = .unsigned
        }
    }

    /// Whether the package is whole: a readable manifest that records the library's checksum, and a signature, if
    /// any, that holds. (Whether its signer is trusted is for `install` to weigh.)
    package var isIntact: Bool {
        guard manifest != nil, case .matches = checksum else { return false }
        if case .invalid = signer { return false }
        return true
    }

    /// What its manifest lets it use, as `plugin list` says it (before any app's grants).
    package var mayUse: String {
        PluginGrant.effective(declared: manifest?.capabilities, origins: manifest?.origins, granted: nil).summary
    }

    /// The lines `plugin inspect` prints, `label: value`, then what to do when the package is not intact.
    package var lines: [String] {
        func row(_ label: String, _ value: String) -> String {
            (label + ":").padding(toLength: 14, withPad: " ", startingAt: 0) + value
        }
        var rows = [
            row("id", manifest?.id ?? "-"), row("version", manifest?.version ?? "-"), row("abi", manifest?.abi ?? "-"),
            row("components", manifest?.components?.joined(separator: ", ") ?? "-"),
            row(
                "capabilities",
                manifest?.capabilities.map { $0.isEmpty ? "none" : $0.sorted().map(\.rawValue).joined(separator: ", ") }
                    ?? "none declared (it may use every host API)"),
            row("origins", manifest?.origins?.joined(separator: ", ") ?? "any the app allows"),
            row("may use", mayUse),
            row("library", "\(libraryName), \(librarySize) bytes"),
            row("checksum", checksumText),
            row("signed by", signerText),
        ]
        if let manifestError { rows.insert(row("manifest", manifestError), at: 0) }
        if !isIntact { rows.append("do not install it: \(problem ?? "it is damaged")") }
        return rows
    }

    private var checksumText: String {
        switch checksum {
        case .matches(let sha): "verified: the library is the one its manifest records (sha256 \(sha.prefix(16))…)"
        case .mismatch(let recorded, let actual):
            "TAMPERED: the manifest records sha256 \(recorded.prefix(16))…, the library is \(actual.prefix(16))…"
        case .missing: "none recorded in its manifest"
        }
    }

    private var signerText: String {
        switch signer {
        case .trusted(let name, let key): "\(name) (trusted key \(key))"
        case .untrusted(let key):
            "a key you do not trust (\(key)): if you trust its publisher, `strada-host plugin trust add NAME \(key)`"
        case .invalid(let key): "INVALID: the signature by \(key) does not match its manifest (tampered)"
        case .unsigned: "nobody (unsigned)"
        }
    }

    /// Why the package is not intact, in a few words.
    private var problem: String? {
        if let manifestError { return manifestError }
        switch checksum {
        case .mismatch: return "tampered: \(libraryName) is not the library its manifest records (SHA-256)"
        case .missing: return "its manifest records no SHA-256 of the library (pack it with `plugin pack`)"
        case .matches: break
        }
        if case .invalid = signer { return "tampered: the signature does not match its manifest" }
        return nil
    }

    /// The same as one JSON object (`plugin inspect --json`).
    package var json: JSON {
        var fields: JSONObject = [
            "library": .string(libraryName), "size": .number(Double(librarySize)), "intact": .bool(isIntact),
            "may_use": .string(mayUse),
        ]
        if let manifest {
            if let id = manifest.id { fields["id"] = .string(id) }
            if let version = manifest.version { fields["version"] = .string(version) }
            if let abi = manifest.abi { fields["abi"] = .string(abi) }
            fields["components"] = .array((manifest.components ?? []).map(JSON.string))
            fields["capabilities"] =
                manifest.capabilities.map { .array($0.sorted().map { .string($0.rawValue) }) } ?? .null
            fields["origins"] = manifest.origins.map { .array($0.map(JSON.string)) } ?? .null
        }
        switch checksum {
        case .matches(let sha): fields["checksum"] = .object(["status": "verified", "sha256": .string(sha)])
        case .mismatch(let recorded, let actual):
            fields["checksum"] = .object([
                "status": "mismatch", "recorded": .string(recorded), "sha256": .string(actual),
            ])
        case .missing(let actual): fields["checksum"] = .object(["status": "missing", "sha256": .string(actual)])
        }
        switch signer {
        case .trusted(let name, let key):
            fields["signature"] = .object(["status": "trusted", "name": .string(name), "key": .string(key)])
        case .untrusted(let key): fields["signature"] = .object(["status": "untrusted", "key": .string(key)])
        case .invalid(let key): fields["signature"] = .object(["status": "invalid", "key": .string(key)])
        case .unsigned: fields["signature"] = .object(["status": "unsigned"])
        }
        if let problem { fields["problem"] = .string(problem) }
        return .object(fields)
    }
}
