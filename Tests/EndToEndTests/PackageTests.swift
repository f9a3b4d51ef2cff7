import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// `scripts/package` builds a Debian package that installs into a scratch root and runs from there with its
/// own Swift runtime and the plugins in its system plugins folder.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct PackageTests {
    /// Builds the package from this build (`scripts/package --bin-path`) and unpacks it into a new scratch
    /// root (`dpkg-deb -x`), as the tests of the packaged host start: the .deb and the root.
    static func unpacked() async throws -> (deb: String, root: String) {
        let output = try TemporaryDirectory.make("deb")
        let built = try await ProcessRunner.run(
            Repository.path("scripts/package"), ["--bin-path", BuiltProducts.directory.path, "--output", output])
        try #require(built.status == 0, "scripts/package: \(built.stderr)")
        let deb = try #require(built.stdout.split(separator: "\n").last.map(String.init))
        let root = try TemporaryDirectory.make("root")
        let extracted = try await ProcessRunner.run("dpkg-deb", ["-x", deb, root])
        try #require(extracted.status == 0, "dpkg-deb -x: \(extracted.stderr)")
        return (deb, root)
    }

    @Test func theDebianPackageInstallsAndRunsTheDemoWithItsPackagedPlugins() async throws {
        let (deb, root) = try await Self.unpacked()
        #expect(deb.hasSuffix(".deb") && FileManager.default.fileExists(atPath: deb))

        let fields = try await ProcessRunner.run("dpkg-deb", ["--field", deb, "Package", "Depends"])
        #expect(fields.stdout.contains("Package: strada-host"))
        #expect(fields.stdout.contains("libwebkitgtk-6.0-4"))

        let host = root + "/usr/bin/strada-host"
        for file in [
            host, root + "/usr/bin/strada-plugin-worker", root + "/usr/lib/strada/plugins/libStradaFormPlugin.so",
            root + "/usr/include/strada/strada_plugin.h",
            root + "/usr/share/strada/web/strada.js", root + "/usr/lib/strada/swift/libswiftCore.so",
            root + "/usr/share/doc/strada-host/copyright",
        ] {
            #expect(FileManager.default.fileExists(atPath: file), "\(file) is not in the package")
        }
        // Debian's machine-readable copyright format, naming the Swift runtime shipped with the host.
        let copyright = try String(contentsOfFile: root + "/usr/share/doc/strada-host/copyright", encoding: .utf8)
        #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
        #expect(copyright.contains("Files: usr/lib/strada/swift/*"))
        // The Swift runtime comes from the package, not from the toolchain that built it.
        let libraries = try await ProcessRunner.run("ldd", [host])
        let swiftCore = libraries.stdout.split(separator: "\n").first { $0.contains("libswiftCore.so") } ?? ""
        #expect(swiftCore.contains(root + "/usr/bin/../lib/strada/swift/"), "\(libraries.stdout)")
        #expect(!libraries.stdout.contains("not found"), "\(libraries.stdout)")
        // So does the helper's (the probes and workers the host starts), which links no GTK; it probes a plugin.
        let helper = root + "/usr/bin/strada-plugin-worker"
        let helperLibraries = try await ProcessRunner.run("ldd", [helper])
        #expect(helperLibraries.stdout.contains(root + "/usr/bin/../lib/strada/swift/libswiftCore.so"))
        #expect(!helperLibraries.stdout.contains("not found") && !helperLibraries.stdout.contains("libgtk"))
        let probe = try await ProcessRunner.run(
            helper, ["--probe", root + "/usr/lib/strada/plugins/libStradaFormPlugin.so"])
        #expect(probe.status == 0 && probe.stdout.contains(#""id":"dev.strada.form""#), "\(probe.stdout)")

        // No --plugins and a fresh home: the components come from the package's system plugins folder.
        let home = try TemporaryDirectory.make("home")
        let demo = try HostProcess(
            page: Repository.path("Examples/form-demo/index.html"), arguments: [],
            environment: ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CACHE_HOME": home + "/cache"],
            executable: host)
        let ready = try await demo.waitFor(.hostReady)
        let plugins = ready["plugins"]?.arrayValue ?? []
        #expect(plugins.count == 10)
        #expect(plugins.allSatisfy { $0["path"]?.stringValue?.hasPrefix(root + "/usr/lib/strada/plugins/") == true })
        let added = try await demo.waitFor(.controlAdded)
        #expect(added["control"]?["id"] == "form.submit")
        try demo.send(["command": "quit"])
        #expect(try await demo.waitForExit() == 0)
    }
}
