package import Foundation
import StradaCore

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
