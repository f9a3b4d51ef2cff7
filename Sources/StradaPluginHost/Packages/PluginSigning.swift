package import Crypto
package import Foundation
import StradaCore

/// Ed25519 keys and signatures for plugin packages: a publisher signs a package's manifest (which holds the
/// library's SHA-256, so the signature covers the code), and a host verifies it against the publisher keys its
/// user trusts. Keys travel as base64 of their 32 raw bytes.
package enum PluginSigning {
    /// A new private key, as the text of a key file (base64, one line).
    package static func newPrivateKey() -> String {
        Curve25519.Signing.PrivateKey().rawRepresentation.base64EncodedString() + "\n"
    }

    /// The private key in a key file's text; the error says what is wrong.
    package static func privateKey(fromFile text: String) throws(PluginPackageError) -> Curve25519.Signing.PrivateKey {
        guard let raw = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else {
            throw PluginPackageError("not an Ed25519 private key (a key file holds one line of base64, 32 bytes)")
        }
        return key
    }

    /// The public key (base64) of a private key.
    package static func publicKey(of key: Curve25519.Signing.PrivateKey) -> String {
        key.publicKey.rawRepresentation.base64EncodedString()
    }

    /// A public key from its base64 text, or `nil` when it is not one.
    package static func publicKey(_ text: String) -> Curve25519.Signing.PublicKey? {
        Data(base64Encoded: text).flatMap { try? Curve25519.Signing.PublicKey(rawRepresentation: $0) }
    }

    /// A package's `signature.json`: the signer's public key and the signature of `manifest.json`'s bytes.
    package struct Signature: Equatable, Sendable {
        package var publicKey: String
        package var signature: String

        /// Signs `manifest` (the exact bytes of the package's `manifest.json`) with `key`.
        package init(signing manifest: Data, with key: Curve25519.Signing.PrivateKey) throws(PluginPackageError) {
            guard let signature = try? key.signature(for: manifest) else {
                throw PluginPackageError("signing failed")
            }
            publicKey = PluginSigning.publicKey(of: key)
            self.signature = signature.base64EncodedString()
        }

        /// Reads `signature.json`; `nil` when it is not one.
        package init?(json data: Data) {
            guard let value = try? JSON(parsing: String(decoding: data, as: UTF8.self)),
                let key = value["key"]?.stringValue, let signature = value["signature"]?.stringValue
            else { return nil }
            publicKey = key
            self.signature = signature
        }

        package var json: Data {
            Data((JSON.object(["key": .string(publicKey), "signature": .string(signature)]).serialized() + "\n").utf8)
        }

        /// Whether this is a valid signature of `manifest` by its key.
        package func isValid(for manifest: Data) -> Bool {
            guard let key = PluginSigning.publicKey(publicKey), let bytes = Data(base64Encoded: signature) else {
                return false
            }
            return key.isValidSignature(bytes, for: manifest)
        }
    }
}
