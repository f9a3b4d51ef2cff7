import Foundation
import Testing

@testable import StradaPluginHost

/// The package's parts on their own: the tar container, signatures, the trust store, verification.
@Suite struct PluginPackageUnitTests {
    @Test func anArchiveReadsBackWhatWasWritten() throws {
        let archive = TarArchive(files: [("manifest.json", Data("{}".utf8)), ("libx.so", Data(count: 1000))])
        #expect(try TarArchive(reading: archive.data) == archive)
        #expect(archive.data.count == 512 + 512 + 512 + 1024 + 1024, "headers, padded contents, the end blocks")
    }

    @Test(arguments: [
        ("../evil.so", "is not a plain file name"), ("dir/x.so", "is not a plain file name"),
    ])
    func anArchiveWithAPathIsRefused(name: String, expected: String) {
        let data = TarArchive(files: [(name, Data("x".utf8))]).data
        #expect {
            try TarArchive(reading: data)
        } throws: { error in
            (error as? TarArchiveError)?.description.contains(expected) == true
        }
    }

    @Test func aTruncatedOrDamagedArchiveIsRefused() {
        let data = TarArchive(files: [("libx.so", Data(count: 2000))]).data
        #expect(throws: TarArchiveError.self) { try TarArchive(reading: data.prefix(1500)) }
        var damaged = data
        damaged[10] ^= 0x01
        #expect(throws: TarArchiveError.self) { try TarArchive(reading: damaged) }
    }

    /// A package of `library` bytes with a manifest recording their checksum.
    static func package(library: Data = Data("not really ELF".utf8)) throws -> PluginPackage {
        let path = NSTemporaryDirectory() + "libunit-\(UUID().uuidString).so"
        try library.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try PluginPackage(library: path, manifest: PluginManifest(id: "dev.example.unit"))
    }

    @Test func verificationNamesTheSignerOrSaysWhyNot() throws {
        let key = try PluginSigning.privateKey(fromFile: PluginSigning.newPrivateKey())
        var package = try Self.package()
        package.signature = try PluginSigning.Signature(signing: package.manifestData, with: key)
        let store = NSTemporaryDirectory() + "keys-\(UUID().uuidString).json"
        var trusted = try TrustedKeys(file: store)
        #expect(throws: PluginPackageError.self) { try package.verify(trusted: trusted, required: false) }
        try trusted.add(name: "acme", key: PluginSigning.publicKey(of: key))
        try trusted.save()
        let reloaded = try TrustedKeys(file: store)
        #expect(reloaded.entries == trusted.entries)
        #expect(
            try package.verify(trusted: reloaded, required: true) == .signed(name: "acme", key: trusted.entries[0].key))
        // Read back from its bytes, it is the same package.
        let read = try PluginPackage(reading: package.data)
        #expect(
            try read.verify(trusted: reloaded, required: true) == .signed(name: "acme", key: trusted.entries[0].key))
        // A manifest changed after signing: the signature no longer holds.
        var edited = read
        edited.manifestData = Data(
            String(decoding: read.manifestData, as: UTF8.self).replacingOccurrences(
                of: "dev.example.unit", with: "dev.example.evil"
            ).utf8)
        #expect(throws: PluginPackageError("tampered: the signature does not match its manifest")) {
            try edited.verify(trusted: reloaded, required: false)
        }
        #expect(trusted.remove("acme") && trusted.entries.isEmpty)
        try? FileManager.default.removeItem(atPath: store)
    }

    @Test func anUnsignedPackagePassesOnlyWhenSignaturesAreNotRequired() throws {
        let package = try Self.package()
        let trusted = try TrustedKeys(file: "/nonexistent/keys.json")
        #expect(try package.verify(trusted: trusted, required: false) == .unsigned)
        #expect(throws: PluginPackageError.self) { try package.verify(trusted: trusted, required: true) }
    }

    @Test func aKeyThatIsNotOneIsRefused() throws {
        var trusted = try TrustedKeys(file: "/nonexistent/keys.json")
        #expect(throws: PluginPackageError.self) { try trusted.add(name: "x", key: "bm90IGEga2V5") }
        #expect(throws: PluginPackageError.self) { try PluginSigning.privateKey(fromFile: "garbage") }
    }
}
