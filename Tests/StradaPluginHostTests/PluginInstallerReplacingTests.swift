import Foundation
import StradaPluginHost
import TestSupport
import Testing

/// What an install replaces in its folder: the file of the same name first, then other files whose manifest
/// names the same plugin id; and the line each gets.
@Suite(.temporaryDirectories)
struct PluginInstallerReplacingTests {
    @Test func theSameFileAndOtherFilesOfTheSameIdAreReplaced() throws {
        let folder = try TemporaryDirectory.make("plugins")
        func place(_ name: String, manifest: String?) throws {
            let path = (folder as NSString).appendingPathComponent(name)
            try Data("x".utf8).write(to: URL(fileURLWithPath: path))
            if let manifest {
                try manifest.write(toFile: PluginManifest.path(forPlugin: path), atomically: true, encoding: .utf8)
            }
        }
        try place("libpay-old.so", manifest: #"{"id": "dev.example.pay", "version": "1.0.0"}"#)
        try place("libpay.so", manifest: #"{"id": "dev.example.pay", "version": "1.1.0"}"#)
        try place("libother.so", manifest: #"{"id": "dev.example.other", "version": "3.0.0"}"#)
        try place("libbare.so", manifest: nil)
        let installer = PluginInstaller(directory: folder) { PluginStatus(path: $0, state: .loaded) }
        let replaced = installer.replacements(ofPlugin: "dev.example.pay", fileName: "libpay.so")
        #expect(replaced.map { ($0.file as NSString).lastPathComponent } == ["libpay.so", "libpay-old.so"])
        #expect(
            replaced[0].line(newVersion: "1.2.0", removed: false)
                == "replaces dev.example.pay 1.1.0 → 1.2.0 (libpay.so)")
        #expect(
            replaced[1].line(newVersion: "1.2.0", removed: true)
                == "replaces dev.example.pay 1.0.0 → 1.2.0 (libpay-old.so, removed)")
        let bare = installer.replacements(ofPlugin: "dev.example.bare", fileName: "libbare.so")
        #expect(
            bare.map { $0.line(newVersion: "2.0", removed: false) } == [
                "replaces a plugin with no manifest (libbare.so)"
            ])
        #expect(installer.replacements(ofPlugin: "dev.example.new", fileName: "libnew.so").isEmpty)
    }
}
