import ArgumentParser
import Foundation
import StradaPluginHost

/// `strada-host plugin keygen`: a new Ed25519 key for signing packages.
struct PluginKeygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen", abstract: "Make an Ed25519 key for signing plugin packages; print its public key.")

    @Option(help: "Where to write the private key (readable by you only; never overwritten).")
    var out: String

    func run() throws {
        guard !FileManager.default.fileExists(atPath: out) else {
            throw ValidationError("\(out) exists; choose another file (a key is never overwritten)")
        }
        let text = PluginSigning.newPrivateKey()
        guard
            FileManager.default.createFile(
                atPath: out, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else { throw ValidationError("cannot write \(out)") }
        print(PluginSigning.publicKey(of: try PluginSigning.privateKey(fromFile: text)))
    }
}

/// `strada-host plugin pack <library>`: one plugin's library and manifest in a package.
struct PluginPack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack", abstract: "Pack a plugin library and its manifest into a .strada-plugin package.")

    @Argument(help: "The plugin library (.so); its manifest beside it (libfoo.json), if any, goes in too.")
    var library: String

    @Option(help: "The package to write (default: <id>-<version>.strada-plugin here).")
    var out: String?

    func run() throws {
        let status = PluginProbe.inspect(file: library, launcher: .stradaHost)
        status.printLogIfRefused()
        guard status.state == .loaded else { throw ValidationError(status.error ?? "\(library) does not load") }
        // The author's fields (capabilities, origins, actions) are kept; what the plugin declares is written.
        var manifest = PluginManifest(besidePlugin: library) ?? PluginManifest()
        manifest.id = status.id
        manifest.version = status.version
        manifest.components = status.components
        manifest.abi = status.abi
        let package = try PluginPackage(library: library, manifest: manifest)
        let target = out ?? "\(status.id ?? "plugin")-\(status.version ?? "0").\(PluginPackage.fileExtension)"
        guard FileManager.default.createFile(atPath: target, contents: package.data) else {
            throw ValidationError("cannot write \(target)")
        }
        print("packed \(status.id ?? "?") \(status.version ?? "?") → \(target) (unsigned: `plugin sign` it)")
        if manifest.capabilities == nil {
            FileHandle.standardError.write(Data((Self.noCapabilitiesWarning(library: library) + "\n").utf8))
        }
    }
}

extension PluginPack {
    /// A package whose manifest declares no capabilities lets its plugin use every host API, and `install` and
    /// `inspect` will say so to its users: said when packing, with the fix.
    static func noCapabilitiesWarning(library: String) -> String {
        let manifest = (PluginManifest.path(forPlugin: library) as NSString).lastPathComponent
        let all = Capability.allCases.map(\.rawValue).joined(separator: ", ")
        return "warning: the manifest declares no capabilities, so the packed plugin may use every host API: "
            + "list the ones it uses in \(manifest)'s \"capabilities\" (\(all)) and pack it again"
    }
}

/// `strada-host plugin sign <package> --key <file>`: signs a package's manifest (which records the library's
/// checksum) with a publisher's key.
struct PluginSign: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign", abstract: "Sign a .strada-plugin package with an Ed25519 key (plugin keygen).")

    @Argument(help: "The package (.strada-plugin), signed in place.")
    var package: String

    @Option(help: "The private key file.")
    var key: String

    func run() throws {
        guard let keyText = try? String(contentsOfFile: key, encoding: .utf8) else {
            throw ValidationError("cannot read the key file \(key)")
        }
        let privateKey = try PluginSigning.privateKey(fromFile: keyText)
        guard let bytes = FileManager.default.contents(atPath: package) else {
            throw ValidationError("\(package): no such file")
        }
        var contents = try PluginPackage(reading: bytes)
        _ = try contents.verify(trusted: try TrustedKeys(), required: false)  // the checksum holds
        contents.signature = try PluginSigning.Signature(signing: contents.manifestData, with: privateKey)
        guard FileManager.default.createFile(atPath: package, contents: contents.data) else {
            throw ValidationError("cannot write \(package)")
        }
        print("signed \(package) with key \(PluginSigning.publicKey(of: privateKey))")
    }
}

/// `strada-host plugin trust add|list|remove`: the publisher keys packages may be signed with.
struct PluginTrustCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust", abstract: "Manage the publisher keys trusted to sign plugin packages.",
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Trust a publisher's public key under a name.")
        @Argument(help: "Your name for the publisher.") var name: String
        @Argument(help: "The publisher's public key (base64, as `plugin keygen` prints it).") var key: String
        func run() throws {
            var keys = try TrustedKeys()
            try keys.add(name: name, key: key)
            try keys.save()
            print("trusted \(name) (\(key)) in \(keys.file)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the trusted publisher keys.")
        func run() throws {
            let keys = try TrustedKeys()
            if keys.entries.isEmpty { print("no trusted keys in \(keys.file)") }
            for entry in keys.entries { print("\(entry.name)  \(entry.key)") }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop trusting a publisher key (by name or key).")
        @Argument(help: "The name (or the key).") var name: String
        func run() throws {
            var keys = try TrustedKeys()
            guard keys.remove(name) else { throw ValidationError("no trusted key named \(name) in \(keys.file)") }
            try keys.save()
            print("no longer trusted: \(name)")
        }
    }
}
