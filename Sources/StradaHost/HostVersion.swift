/// The host's version: what `strada-host --version` prints, and the Debian package's version before its
/// `+git<commits>` suffix (`scripts/package` reads it from this file).
package enum HostVersion {
    package static let current = "0.1.0"
}
