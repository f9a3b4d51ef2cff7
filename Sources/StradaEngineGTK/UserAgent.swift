import StradaCore

/// The user agent the host announces: engine default, then an optional app prefix, then our product
/// token with the native-app markers and the loaded component names in a comment. The comment form
/// matters: WebKitGTK silently rejects the iOS form (`…; bridge-components: [a b]`) as an invalid header.
package enum UserAgent {
    /// The product token version.
    package static let productVersion = "1.0"

    /// e.g. `StradaLinux/1.0 (Hotwire Native Linux; Turbo Native Linux; bridge-components: [form menu])`.
    package static func suffix(prefix: String? = nil, componentNames: [String]) -> String {
        let components = Strada.userAgentSubstring(forNames: componentNames)
        let product = "StradaLinux/\(productVersion) (Hotwire Native Linux; Turbo Native Linux; \(components))"
        guard let prefix, !prefix.isEmpty else { return product }
        return "\(prefix) \(product)"
    }
}
