import StradaAutomation

/// Why a file in a plugins directory was not loaded. `description` is one line: the file, what is wrong,
/// and what to do about it.
package struct PluginLoadError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file that was refused.
    package let path: String
    /// What is wrong, e.g. "not a shared library (no ELF header)".
    package let reason: String
    /// What to do, e.g. "remove it from the plugins directory".
    package let remedy: String

    package var description: String { "plugin \(path): \(reason) — \(remedy)" }

    /// Whether only a new file can end it: a crash, hang or exit while loading (in a probe or a first worker), or
    /// a file that is no shared library, no Strada plugin, one of another ABI, or an invalid description. The
    /// plugin manifest cache remembers these by the file's identity (``PluginManifestCache``), so the next start
    /// refuses the same file at once. Read from the reason, whose openings are made here and in the probe and the
    /// worker (``PluginStatus/crashed(_:_:)``, ``IsolatedPlugin``): the one place that tells them apart.
    package var isPropertyOfTheFile: Bool {
        Self.fileProperties.contains { reason.hasPrefix($0) }
    }

    private static let fileProperties = [
        "crashed while loading", "hung while loading", "the probe exited with status",
        "its worker process exited while loading", "not a shared library", "no strada_plugin_entry_v1 symbol",
        "built for plugin ABI", "built for ABI 1.", "invalid plugin description",
    ]

    /// A plugins directory that is missing or not a directory.
    package static func unreadableDirectory(_ path: String) -> Self {
        Self(path: path, reason: "cannot read the plugins directory", remedy: "create it or pass another --plugins")
    }
    static func notSharedLibrary(_ path: String) -> Self {
        Self(path: path, reason: "not a shared library (no ELF header)", remedy: "remove it from the plugins directory")
    }
    static func dlopenFailed(_ path: String, _ detail: String) -> Self {
        Self(path: path, reason: "cannot be loaded: \(detail)", remedy: "rebuild it for this machine, or remove it")
    }
    static func missingEntry(_ path: String) -> Self {
        Self(
            path: path, reason: "no strada_plugin_entry_v1 symbol, so it is not a Strada plugin",
            remedy: "export it with the SDK (StradaPlugin.export / STRADA_PLUGIN_ENTRY_V1_DEFINE), or remove the file")
    }
    static func otherMajor(_ path: String, _ major: Int) -> Self {
        Self(
            path: path, reason: "built for plugin ABI \(major), this host speaks ABI 1",
            remedy: "rebuild it against SDK 1.x, or use a host that speaks ABI \(major)")
    }
    static func entryFailed(_ path: String, _ status: Int32) -> Self {
        Self(
            path: path, reason: "its entry point refused to load (status \(status))",
            remedy: "see the plugin's own log line above")
    }
    static func invalidDescription(_ path: String, _ detail: String) -> Self {
        Self(path: path, reason: "invalid plugin description: \(detail)", remedy: "rebuild it against SDK 1.x")
    }
    static func manifestInvalid(_ path: String, _ manifest: String, _ detail: String) -> Self {
        Self(path: path, reason: "its manifest \(manifest) is invalid: \(detail)", remedy: "fix or delete the manifest")
    }
    /// The worker `executable` said hello in worker protocol `spoken`, not this host's.
    static func workerOfAnotherBuild(_ path: String, _ executable: String, _ spoken: Int) -> Self {
        Self(
            path: path,
            reason: "its worker, \(executable), is from another build of Strada (worker protocol \(spoken), this "
                + "host's \(WorkerMessage.protocolVersion))",
            remedy: "build every product again (swift build), or reinstall the host")
    }
    static func checksumMismatch(_ path: String, expected: String, actual: String) -> Self {
        Self(
            path: path,
            reason:
                "checksum mismatch: the manifest says sha256 \(expected.prefix(12))…, the file is "
                + "\(actual.prefix(12))…",
            remedy: "the file changed after it was installed; reinstall it with `strada-host plugin install`")
    }
    static func newerMinor(_ path: String, _ minor: UInt32, host: UInt32) -> Self {
        Self(
            path: path, reason: "built for ABI 1.\(minor), this host speaks 1.\(host)",
            remedy: "update the host, or rebuild the plugin against SDK 1.\(host)")
    }
}
