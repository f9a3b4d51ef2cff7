import Foundation
import StradaCore
import TestSupport
import Testing

/// Signed plugin packages through the real `strada-host`: `plugin keygen`, `pack`, `sign`, `trust` and
/// `install` of a `.strada-plugin` file or URL. A package signed by a trusted key installs (what it is, who
/// signed it and what it may use said first); a tampered one, one signed by an unknown key, an unsigned one
/// when signatures are required, or one nobody confirmed is refused with one line, and nothing is copied.
@Suite(.serialized, .temporaryDirectories, .timeLimit(.minutes(3)))
struct PluginPackageTests {
    /// A folder with the form plugin (and its manifest), a key, and the trust store in its own config folder.
    struct Workshop {
        let folder: String
        let environment: [String: String]
        var package: String { (folder as NSString).appendingPathComponent("form.strada-plugin") }
        var key: String { (folder as NSString).appendingPathComponent("publisher.key") }

        init() throws {
            folder = try PluginsDirectory.make(plugins: ["libStradaFormPlugin.so"])
            environment = ["XDG_CONFIG_HOME": try TemporaryDirectory.make("config")]
        }

        func host(_ arguments: [String], input: String? = nil) async throws -> ProcessRunner.Output {
            try await ProcessRunner.run(
                BuiltProducts.path("strada-host"), arguments, environment: environment, input: input)
        }

        /// Installs the package (or `source`) into a new folder; returns the output and the folder's files.
        func install(_ extra: [String], source: String? = nil) async throws -> (ProcessRunner.Output, [String]) {
            let target = (try TemporaryDirectory.make("installed") as NSString).appendingPathComponent("plugins")
            let output = try await host(
                ["plugin", "install", source ?? package, "--plugins", target] + extra, input: "")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: target).sorted()) ?? []
            return (output, files)
        }
    }

    /// keygen, pack, sign: the workshop's package signed with its key; returns the public key.
    static func signedPackage(in workshop: Workshop) async throws -> String {
        let keygen = try await workshop.host(["plugin", "keygen", "--out", workshop.key])
        #expect(keygen.status == 0, "\(keygen.stderr)")
        let library = (workshop.folder as NSString).appendingPathComponent("libStradaFormPlugin.so")
        let pack = try await workshop.host(["plugin", "pack", library, "--out", workshop.package])
        #expect(pack.status == 0, "\(pack.stderr)")
        let sign = try await workshop.host(["plugin", "sign", workshop.package, "--key", workshop.key])
        #expect(sign.status == 0, "\(sign.stderr)")
        return keygen.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aPackageSignedByATrustedKeyInstallsWithItsManifestAndSignature() async throws {
        let workshop = try Workshop()
        let key = try await Self.signedPackage(in: workshop)
        #expect(try await workshop.host(["plugin", "trust", "add", "acme", key]).status == 0)
        let (output, files) = try await workshop.install(["--yes", "--require-signature"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("dev.strada.form 1.0.0 (form), signed by acme, may use: controls"))
        #expect(files == ["libStradaFormPlugin.json", "libStradaFormPlugin.signature.json", "libStradaFormPlugin.so"])
        // The archive is a plain tar: the standard tool lists it.
        let listing = try await ProcessRunner.run("/usr/bin/tar", ["tf", workshop.package])
        #expect(listing.stdout == "manifest.json\nlibStradaFormPlugin.so\nsignature.json\n", "\(listing.stderr)")
    }

    /// The form plugin installed from the workshop's package (signed by a key trusted as "acme") into an app's
    /// plugins folder, and that app's definition, which requires signed plugins.
    static func appRequiringSignatures(_ workshop: Workshop) async throws -> (definition: String, plugins: String) {
        let key = try await Self.signedPackage(in: workshop)
        #expect(try await workshop.host(["plugin", "trust", "add", "acme", key]).status == 0)
        let plugins = (try TemporaryDirectory.make("app") as NSString).appendingPathComponent("plugins")
        let install = try await workshop.host(["plugin", "install", workshop.package, "--plugins", plugins, "--yes"])
        #expect(install.status == 0, "\(install.stderr)")
        let definition = (plugins as NSString).deletingLastPathComponent + "/app.json"
        try """
        {"id": "dev.strada.SignedTest", "name": "Signed", "start_url": "file://\(definition)",
         "plugins": ["\(plugins)"], "system_plugins": false, "require_signed_plugins": true}
        """.write(toFile: definition, atomically: true, encoding: .utf8)
        return (definition, plugins)
    }

    /// An app that requires signed plugins loads the one installed from a trusted, signed package and refuses
    /// a plain copy beside it, with one line saying why and what to do.
    @Test func anAppRequiringSignedPluginsLoadsOnlyThoseFromTrustedPackages() async throws {
        let workshop = try Workshop()
        let (definition, plugins) = try await Self.appRequiringSignatures(workshop)
        try FileManager.default.copyItem(
            atPath: BuiltProducts.path("libStradaButtonPlugin.so"),
            toPath: (plugins as NSString).appendingPathComponent("libStradaButtonPlugin.so"))
        let host = try HostProcess(app: definition, arguments: [], environment: workshop.environment)
        let ready = try await host.waitFor(.hostReady, timeout: 60)
        #expect(ready["components"] == ["form"], "\(ready)")
        #expect(
            host.standardError.contains(
                "libStradaButtonPlugin.so: refused: it has no manifest recording its checksum, "
                    + "and this app requires signed plugins"), "\(host.standardError)")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    /// A library changed after its signed install (one byte of its compiler's note, so it would still load): its
    /// signature and manifest still match each other, but the loader checks the library against the manifest's
    /// checksum before any of its code runs, in process and in a worker alike. It is refused with one line naming
    /// it, its component is not there, and the host goes on.
    @Test(arguments: [[], ["--isolate"]])
    func aLibraryChangedAfterItsSignedInstallIsRefused(_ arguments: [String]) async throws {
        let workshop = try Workshop()
        let (definition, plugins) = try await Self.appRequiringSignatures(workshop)
        let library = (plugins as NSString).appendingPathComponent("libStradaFormPlugin.so")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: library))
        let note = try #require(bytes.range(of: Data("clang version".utf8)), "the library's .comment")
        bytes[note.lowerBound] ^= 0x20  // "Clang version"
        try bytes.write(to: URL(fileURLWithPath: library))
        let host = try HostProcess(app: definition, arguments: arguments, environment: workshop.environment)
        let ready = try await host.waitFor(.hostReady, timeout: 60)
        #expect(ready["components"] == [], "\(ready)")
        let lines = host.standardError.split(separator: "\n").filter { $0.contains("checksum mismatch") }
        #expect(lines.count == 1, "\(host.standardError)")
        #expect(
            lines.first?.contains(
                "plugin \(library): checksum mismatch: the manifest says sha256 ") == true, "\(host.standardError)")
        #expect(lines.first?.contains("reinstall it with `strada-host plugin install`") == true)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func aPackageFromAURLInstalls() async throws {
        let workshop = try Workshop()
        let key = try await Self.signedPackage(in: workshop)
        #expect(try await workshop.host(["plugin", "trust", "add", "acme", key]).status == 0)
        let server = try await LocalHTTPServer.serving(directory: workshop.folder)
        let (output, files) = try await workshop.install(["--yes"], source: server.url + "form.strada-plugin")
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(files.contains("libStradaFormPlugin.so"))
        server.stop()
    }

    @Test func refusalsSayWhyAndCopyNothing() async throws {
        let workshop = try Workshop()
        let key = try await Self.signedPackage(in: workshop)
        // An unknown key.
        var (output, files) = try await workshop.install(["--yes"])
        #expect(output.status != 0 && files.isEmpty)
        #expect(output.stderr.contains("nothing installed: signed by a key you do not trust (\(key))"))
        #expect(output.stderr.contains("strada-host plugin trust add NAME \(key)"), "\(output.stderr)")
        #expect(try await workshop.host(["plugin", "trust", "add", "acme", key]).status == 0)
        // Nobody said yes: stdin is not a terminal and there is no --yes.
        (output, files) = try await workshop.install([])
        #expect(output.status != 0 && files.isEmpty, "\(output.stdout)")
        #expect(output.stderr.contains("pass --yes"), "\(output.stderr)")
        // Tampered: one byte of the library changed inside the archive (its checksum no longer holds).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: workshop.package))
        bytes[2048] ^= 0xFF  // inside the library, which follows the manifest's header and block
        let tampered = (workshop.folder as NSString).appendingPathComponent("tampered.strada-plugin")
        try bytes.write(to: URL(fileURLWithPath: tampered))
        (output, files) = try await workshop.install(["--yes"], source: tampered)
        #expect(output.status != 0 && files.isEmpty)
        #expect(output.stderr.contains("tampered: libStradaFormPlugin.so is not the library its manifest records"))
        // Unsigned, with signatures required.
        let library = (workshop.folder as NSString).appendingPathComponent("libStradaFormPlugin.so")
        let unsigned = (workshop.folder as NSString).appendingPathComponent("unsigned.strada-plugin")
        #expect(try await workshop.host(["plugin", "pack", library, "--out", unsigned]).status == 0)
        (output, files) = try await workshop.install(["--yes", "--require-signature"], source: unsigned)
        #expect(output.status != 0 && files.isEmpty)
        #expect(output.stderr.contains("nothing installed: unsigned, and signatures are required"))
        // Unsigned without the requirement: installed, and said to be unsigned.
        (output, files) = try await workshop.install(["--yes"], source: unsigned)
        #expect(output.status == 0 && output.stdout.contains("UNSIGNED"), "\(output.stdout)\(output.stderr)")
    }
}
