import StradaCore

/// A deep link: a URL in one of the app's own schemes (its definition's `url_schemes`), which the desktop hands
/// to the app — from another app, a web page's link, or the system browser at the end of a sign-in — and which
/// the app opens as a page on its own origin.
///
/// The mapping: everything after `scheme:` and its slashes becomes the path, query and fragment on the origin
/// of the app's `start_url`; the host part of the link is the first path segment.
///
/// | link | page (start_url `https://notes.example.com/app/`) |
/// |---|---|
/// | `myapp://posts/1?x=1` | `https://notes.example.com/posts/1?x=1` |
/// | `myapp:///posts/1` | `https://notes.example.com/posts/1` |
/// | `myapp://callback?code=abc#top` | `https://notes.example.com/callback?code=abc#top` |
/// | `myapp://` | `https://notes.example.com/` |
///
/// Rationale: Android's Hotwire deep-link destinations and iOS's universal links both resolve a link to a
/// path of the app's own site; the link never names another site, so a link cannot send the app elsewhere.
package enum DeepLink {
    /// The schemes the web view loads itself; any other scheme given to `run --app` is a deep link.
    package static let webSchemes: Set<String> = ["http", "https", "file", "about", "data"]

    /// The scheme of `url` (lowercased), or `nil` when it has none.
    package static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }

    /// Whether `url` is a deep link rather than a page: it has a scheme the web view does not load itself.
    package static func isDeepLink(_ url: String) -> Bool {
        scheme(of: url).map { !webSchemes.contains($0) } ?? false
    }

    /// The page `link` opens for an app whose `url_schemes` are `schemes` and whose start page is `startURL`.
    /// Throws a one-line refusal when the link's scheme is not the app's, or the link is not usable.
    package static func page(for link: String, schemes: [String], startURL: String) throws(Refusal) -> String {
        guard let scheme = scheme(of: link), schemes.contains(scheme) else {
            let known = schemes.isEmpty ? "it has none" : "it has \(schemes.joined(separator: ", "))"
            throw Refusal(
                "\(link): the app does not open \(scheme(of: link) ?? "this")-scheme links (\(known)); "
                    + "add the scheme to the definition's \"url_schemes\"")
        }
        guard let origin = OriginPolicy.origin(of: startURL), origin != "file://" else {
            throw Refusal("\(link): deep links need an http(s) start_url to open on")
        }
        var rest = link.dropFirst(scheme.count + 1)
        while rest.first == "/" || rest.first == "\\" { rest = rest.dropFirst() }
        let page = origin + "/" + rest
        guard !rest.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true }),
            OriginPolicy.origin(of: page) == origin
        else { throw Refusal("\(link): not a link the app can open (spaces or control characters)") }
        return page
    }

    /// Why `schemes` cannot be an app's `url_schemes` with this start page, or `nil` when they can.
    static func problem(schemes: [String], startURL: String) -> String? {
        for value in schemes where scheme(of: value + ":") != value || webSchemes.contains(value) {
            return "\"url_schemes\" has \"\(value)\", not a scheme of the app's own; write it like \"myapp\" "
                + "(a letter, then letters, digits, +, - or .; not http, https, file, about or data)"
        }
        if !schemes.isEmpty, OriginPolicy.origin(of: startURL).map({ $0 == "file://" }) ?? true {
            return "\"url_schemes\" needs an http(s) \"start_url\": a link opens a page on its origin"
        }
        return nil
    }

    /// A deep link refused: one line, naming the link and what to do.
    package struct Refusal: Error, CustomStringConvertible, Sendable {
        package let description: String
        init(_ description: String) { self.description = description }
    }
}
