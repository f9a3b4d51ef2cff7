package import Foundation
import StradaCore
import Synchronization

/// The publisher keys a user trusts to sign plugin packages (`strada-host plugin trust add|list|remove`), kept
/// in `$XDG_CONFIG_HOME/strada/trusted-keys.json` (by default `~/.config/strada/`):
/// `{"keys": [{"name": "acme", "key": "<base64 Ed25519 public key>"}]}`.
package struct TrustedKeys: Equatable, Sendable {
    package struct Entry: Equatable, Sendable {
        package var name: String
        package var key: String
    }

    package private(set) var entries: [Entry] = []
    /// The file they are kept in.
    package let file: String

    /// The default file for `environment` (the process's own when `nil`).
    package static func defaultFile(environment: [String: String]? = nil) -> String {
        BaseDirectory.config.appending("strada/trusted-keys.json", environment: environment)
    }

    /// The keys in `file`; none when it does not exist. A file that cannot be read is an error, never "no keys".
    package init(file: String = TrustedKeys.defaultFile()) throws(PluginPackageError) {
        self.file = file
        guard FileManager.default.fileExists(atPath: file) else { return }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8), let value = try? JSON(parsing: text),
            case .array(let items)? = value["keys"]
        else { throw PluginPackageError("\(file) is not a trusted-keys file; fix or remove it") }
        for item in items {
            guard let name = item["name"]?.stringValue, let key = item["key"]?.stringValue else {
                throw PluginPackageError("\(file): each key needs a \"name\" and a \"key\"; fix or remove it")
            }
            entries.append(Entry(name: name, key: key))
        }
    }

    /// No key at all (every signature is refused).
    package static let none = TrustedKeys(file: "/dev/null", entries: [])

    private init(file: String, entries: [Entry]) {
        self.file = file
        self.entries = entries
    }

    /// The name the user gave `key`, if it is trusted.
    package func name(of key: String) -> String? { entries.first { $0.key == key }?.name }

    /// Trusts `key` under `name` (replacing an entry of either). The key must be an Ed25519 public key.
    package mutating func add(name: String, key: String) throws(PluginPackageError) {
        guard !name.isEmpty, !name.contains(where: \.isNewline) else {
            throw PluginPackageError("a trusted key needs a one-line name")
        }
        guard PluginSigning.publicKey(key) != nil else {
            throw PluginPackageError(
                "\(key) is not an Ed25519 public key (base64 of 32 bytes, as `plugin keygen` prints)")
        }
        entries.removeAll { $0.name == name || $0.key == key }
        entries.append(Entry(name: name, key: key))
    }

    /// Stops trusting the key named `name` (or the key itself). `false` when there was none.
    package mutating func remove(_ name: String) -> Bool {
        let before = entries.count
        entries.removeAll { $0.name == name || $0.key == name }
        return entries.count != before
    }

    /// Writes the file (its folder made if needed; readable by its owner only).
    package func save() throws(PluginPackageError) {
        let keys = entries.map { JSON.object(["name": .string($0.name), "key": .string($0.key)]) }
        let text = JSON.object(["keys": .array(keys)]).serialized(sortedKeys: true) + "\n"
        do {
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        } catch {
            throw PluginPackageError("cannot write \(file): \(error.localizedDescription)")
        }
    }
}

/// An app that requires signed plugins (its definition's `"require_signed_plugins": true`): the host loads
/// only plugins installed from a package signed by a trusted key — their manifest as signed, the signature
/// beside it (``PluginInstaller/signaturePath(forPlugin:)``), the library the manifest's checksum names.
package enum PluginSignatures {
    /// The keys plugins must be signed with; `nil`: signatures are not required. Set once, before plugins load.
    private static let requiredKeys = Mutex<TrustedKeys?>(nil)

    package static func require(_ keys: TrustedKeys?) { requiredKeys.withLock { $0 = keys } }

    /// `nil` when `path` may load; otherwise why not. The library is hashed only with `hashingLibrary`: the loader
    /// checks it against the manifest's checksum before it runs any code (in the worker too: a staged copy takes its
    /// manifest), but a start announces plugins without opening them, so it asks for the hash — a library changed
    /// after its signed install is then refused at start, and its components are never announced.
    package static func check(_ path: String, hashingLibrary: Bool = false) -> PluginLoadError? {
        guard let trusted = requiredKeys.withLock({ $0 }) else { return nil }
        let remedy =
            "install it from a package signed by a publisher you trust (strada-host plugin install FILE.strada-plugin)"
        func refuse(_ why: String) -> PluginLoadError {
            PluginLoadError(path: path, reason: "refused: \(why), and this app requires signed plugins", remedy: remedy)
        }
        guard let manifest = FileManager.default.contents(atPath: PluginManifest.path(forPlugin: path)),
            let expected = (try? PluginManifest(json: String(decoding: manifest, as: UTF8.self)))?.sha256
        else { return refuse("it has no manifest recording its checksum") }
        guard let data = FileManager.default.contents(atPath: PluginInstaller.signaturePath(forPlugin: path)),
            let signature = PluginSigning.Signature(json: data)
        else { return refuse("it is not signed") }
        guard signature.isValid(for: manifest) else { return refuse("its signature does not match its manifest") }
        guard trusted.name(of: signature.publicKey) != nil else {
            return refuse("it is signed by a key you do not trust (\(signature.publicKey))")
        }
        if hashingLibrary {
            let actual = (try? PluginManifest.sha256(ofFile: path)) ?? ""
            if actual != expected { return .checksumMismatch(path, expected: expected, actual: actual) }
        }
        return nil
    }
}
