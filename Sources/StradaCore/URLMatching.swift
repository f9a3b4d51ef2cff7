/// The rule deciding whether a message's `metadata.url` belongs to the page now shown.
///
/// Upstream compares the strings exactly, which drops legitimate messages after a redirect (the live URL
/// differs from the one the page was opened with), with a trailing slash, or after a fragment change. Ours:
/// the message URL is compared with the web view's *live* URL (falling back to the page's location), with
/// the fragment removed and a trailing slash on the path ignored. Everything else — scheme, host, port, path
/// and query — must match, so a message from a previous page is still rejected.
package enum URLMatching {
    /// `true` when `messageURL` names the same page as `pageURL` under the rule above.
    package static func samePage(_ messageURL: String, _ pageURL: String) -> Bool {
        if messageURL == pageURL { return true }
        return normalized(messageURL) == normalized(pageURL)
    }

    static func normalized(_ url: String) -> Substring {
        var url = Substring(url)
        if let hash = url.firstIndex(of: "#") { url = url[..<hash] }
        var query: Substring = ""
        if let mark = url.firstIndex(of: "?") {
            query = url[mark...]
            url = url[..<mark]
        }
        // Drop one trailing slash unless it is the whole path ("https://a/" stays comparable with "https://a").
        if url.hasSuffix("/") { url = url.dropLast() }
        return url + query
    }
}
