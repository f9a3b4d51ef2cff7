import Foundation
import StradaCore
import TestSupport
import Testing

/// What the package commands say, through the real `strada-host`: `plugin inspect` of a package (signed, tampered,
/// unsigned) before anything is installed, `pack`'s warning about undeclared capabilities, what `install` replaces,
/// and a failed download's HTTP status.
@Suite(.serialized, .temporaryDirectories, .timeLimit(.minutes(3)))
struct PluginPackageReportTests {
    typealias Workshop = PluginPackageTests.Workshop

    /// The package's bytes with `original` replaced by `changed` (the same length) where it first occurs.
    static func changing(_ package: String, _ original: String, to changed: String, as name: String) throws -> String {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: package))
        let range = try #require(bytes.range(of: Data(original.utf8)))
        bytes.replaceSubrange(range, with: Data(changed.utf8))
        let path = ((package as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func inspectShowsASignedPackageAndItsSignerWithoutInstallingIt() async throws {
        let workshop = try Workshop()
        let key = try await PluginPackageTests.signedPackage(in: workshop)
        let before = try FileManager.default.contentsOfDirectory(atPath: workshop.folder).sorted()
        // Not trusted yet: said, with the command to trust it; the package is intact, so the status is 0.
        var output = try await workshop.host(["plugin", "inspect", workshop.package])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("signed by:    a key you do not trust (\(key))"), "\(output.stdout)")
        #expect(output.stdout.contains("strada-host plugin trust add NAME \(key)"))
        #expect(try await workshop.host(["plugin", "trust", "add", "acme", key]).status == 0)
        output = try await workshop.host(["plugin", "inspect", workshop.package])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        for line in [
            "id:           dev.strada.form", "version:      1.0.0", "components:   form", "capabilities: controls",
            "origins:      any the app allows", "may use:      controls", "library:      libStradaFormPlugin.so, ",
            "checksum:     verified: the library is the one its manifest records",
            "signed by:    acme (trusted key \(key))",
        ] {
            #expect(output.stdout.contains(line), "\(line)\n\(output.stdout)")
        }
        #expect(output.stdout.contains("(not installed; none of its code was run)"))
        #expect(!output.stdout.contains("do not install it"))
        let json = try JSON(parsing: try await workshop.host(["plugin", "inspect", workshop.package, "--json"]).stdout)
        #expect(json["signature"]?["status"] == "trusted" && json["signature"]?["name"] == "acme", "\(json)")
        #expect(json["checksum"]?["status"] == "verified" && json["intact"] == true)
        #expect(json["capabilities"] == ["controls"] && json["components"] == ["form"])
        // Nothing was unpacked or installed.
        #expect(try FileManager.default.contentsOfDirectory(atPath: workshop.folder).sorted() == before)
    }

    @Test func inspectSaysATamperedPackageIsTamperedAndExitsWithAnError() async throws {
        let workshop = try Workshop()
        let key = try await PluginPackageTests.signedPackage(in: workshop)
        #expect(try await workshop.host(["plugin", "trust", "add", "acme", key]).status == 0)
        // The library changed: its checksum no longer holds.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: workshop.package))
        bytes[2048] ^= 0xFF  // inside the library, which follows the manifest's header and block
        let library = (workshop.folder as NSString).appendingPathComponent("library.strada-plugin")
        try bytes.write(to: URL(fileURLWithPath: library))
        var output = try await workshop.host(["plugin", "inspect", library])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("checksum:     TAMPERED: the manifest records sha256 "), "\(output.stdout)")
        #expect(
            output.stdout.contains(
                "do not install it: tampered: libStradaFormPlugin.so is not the library its manifest records"))
        // The manifest changed after signing (a version raised): the signature no longer holds.
        let manifest = try Self.changing(
            workshop.package, #""version":"1.0.0""#, to: #""version":"9.0.0""#, as: "manifest.strada-plugin")
        output = try await workshop.host(["plugin", "inspect", manifest])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("version:      9.0.0"))
        #expect(output.stdout.contains("signed by:    INVALID: the signature by \(key) does not match its manifest"))
        #expect(output.stdout.contains("do not install it: tampered: the signature does not match its manifest"))
    }

    @Test func inspectShowsAnUnsignedPackageAsUnsigned() async throws {
        let workshop = try Workshop()
        let library = (workshop.folder as NSString).appendingPathComponent("libStradaFormPlugin.so")
        #expect(try await workshop.host(["plugin", "pack", library, "--out", workshop.package]).status == 0)
        let output = try await workshop.host(["plugin", "inspect", workshop.package])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("signed by:    nobody (unsigned)"), "\(output.stdout)")
        #expect(output.stdout.contains("checksum:     verified"))
    }

    /// A plugin whose manifest declares no capabilities may use every host API: `pack` says so, with the fix; a
    /// plugin that declares them packs without a word on stderr.
    @Test func packWarnsWhenNoCapabilitiesAreDeclared() async throws {
        let workshop = try Workshop()
        let hot = (workshop.folder as NSString).appendingPathComponent("libhot.so")
        try HotReloadTests.buildHotPlugin(version: "v1", at: hot)
        let output = try await workshop.host(["plugin", "pack", hot, "--out", workshop.folder + "/hot.strada-plugin"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                "warning: the manifest declares no capabilities, so the packed plugin may use every host API: list "
                    + "the ones it uses in libhot.json's \"capabilities\" (controls, dialogs"), "\(output.stderr)")
        let form = (workshop.folder as NSString).appendingPathComponent("libStradaFormPlugin.so")
        let declared = try await workshop.host(["plugin", "pack", form, "--out", workshop.package])
        #expect(declared.status == 0 && !declared.stderr.contains("warning"), "\(declared.stderr)")
    }

    /// Installing a plugin already installed says what it replaces: the file of the same name (its id and version,
    /// old → new), and another file with the same id, which is removed so the folder holds one build of it.
    @Test func installSaysWhatItReplaces() async throws {
        let workshop = try Workshop()
        let target = (try TemporaryDirectory.make("installed") as NSString).appendingPathComponent("plugins")
        let library = (workshop.folder as NSString).appendingPathComponent("libStradaFormPlugin.so")
        var output = try await workshop.host(["plugin", "install", library, "--plugins", target])
        #expect(output.status == 0 && !output.stdout.contains("replaces"), "\(output.stdout)\(output.stderr)")
        // The package of the same library, over it: said before the question, so before anything is copied.
        #expect(try await workshop.host(["plugin", "pack", library, "--out", workshop.package]).status == 0)
        output = try await workshop.host(["plugin", "install", workshop.package, "--plugins", target, "--yes"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("\nreplaces dev.strada.form 1.0.0 → 1.0.0 (libStradaFormPlugin.so)\n"))
        // The same plugin under another file name: the old file goes, and the line says so.
        let renamed = (workshop.folder as NSString).appendingPathComponent("libform-next.so")
        try FileManager.default.copyItem(atPath: library, toPath: renamed)
        output = try await workshop.host(["plugin", "install", renamed, "--plugins", target])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(
            output.stdout.contains("  replaces dev.strada.form 1.0.0 → 1.0.0 (libStradaFormPlugin.so, removed)"),
            "\(output.stdout)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: target).sorted() == [
                "libform-next.json", "libform-next.so",
            ])
    }

    @Test func aFailedDownloadGivesTheHTTPStatus() async throws {
        let workshop = try Workshop()
        let server = try await LocalHTTPServer.serving(directory: workshop.folder)
        defer { server.stop() }
        let missing = server.url + "missing.strada-plugin"
        let (output, files) = try await workshop.install(["--yes"], source: missing)
        #expect(output.status != 0 && files.isEmpty)
        #expect(
            output.stderr.contains(
                "nothing installed: \(missing) could not be downloaded: the server answered HTTP 404"),
            "\(output.stderr)")
        let inspect = try await workshop.host(["plugin", "inspect", missing])
        #expect(inspect.status != 0 && inspect.stderr.contains("answered HTTP 404"), "\(inspect.stderr)")
    }
}
