import Crypto
import Foundation
import Testing

@testable import StradaPluginHost

/// What `plugin inspect` makes of a package, from the archive alone: the checksum against the manifest and the
/// signer against the trusted keys, and whether it is intact.
@Suite struct PackageInspectionTests {
    let key: Curve25519.Signing.PrivateKey

    init() throws { key = try PluginSigning.privateKey(fromFile: PluginSigning.newPrivateKey()) }

    func trusting(_ name: String?) throws -> TrustedKeys {
        var keys = try TrustedKeys(file: NSTemporaryDirectory() + "keys-\(UUID().uuidString).json")
        if let name { try keys.add(name: name, key: PluginSigning.publicKey(of: key)) }
        return keys
    }

    func signed() throws -> PluginPackage {
        var package = try PluginPackageUnitTests.package()
        package.signature = try PluginSigning.Signature(signing: package.manifestData, with: key)
        return package
    }

    @Test func aSignedPackageNamesItsSignerWhenTrustedAndItsKeyWhenNot() throws {
        let publicKey = PluginSigning.publicKey(of: key)
        let trusted = PackageInspection(try signed(), trusted: try trusting("acme"))
        #expect(trusted.signer == .trusted(name: "acme", key: publicKey))
        #expect(trusted.isIntact && trusted.lines.contains("signed by:    acme (trusted key \(publicKey))"))
        let untrusted = PackageInspection(try signed(), trusted: try trusting(nil))
        #expect(untrusted.signer == .untrusted(key: publicKey) && untrusted.isIntact)
    }

    @Test func aChangedLibraryOrManifestIsNotIntact() throws {
        var library = try signed()
        library.library.append(0)
        let changed = PackageInspection(library, trusted: try trusting("acme"))
        guard case .mismatch = changed.checksum else { Issue.record("\(changed.checksum)"); return }
        #expect(!changed.isIntact && changed.lines.last?.hasPrefix("do not install it: tampered: ") == true)
        var manifest = try signed()
        manifest.manifestData = Data(
            String(decoding: manifest.manifestData, as: UTF8.self)
                .replacingOccurrences(of: "dev.example.unit", with: "dev.example.evil").utf8)
        let resigned = PackageInspection(manifest, trusted: try trusting("acme"))
        #expect(resigned.signer == .invalid(key: PluginSigning.publicKey(of: key)) && !resigned.isIntact)
        #expect(resigned.json["signature"]?["status"] == "invalid" && resigned.json["intact"] == false)
    }

    @Test func anUnsignedPackageIsIntactAndSaysSo() throws {
        let inspection = PackageInspection(try PluginPackageUnitTests.package(), trusted: try trusting(nil))
        #expect(inspection.signer == .unsigned && inspection.isIntact)
        #expect(inspection.lines.contains("capabilities: none declared (it may use every host API)"))
        #expect(inspection.lines.contains("signed by:    nobody (unsigned)"))
    }
}
