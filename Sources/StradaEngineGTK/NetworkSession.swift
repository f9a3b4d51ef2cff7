import CWebKitGTK
import Foundation

/// Where web views keep website data: thrown away at exit, or kept in an app's folders.
package enum WebsiteData: Sendable, Equatable {
    case ephemeral
    /// `data`: cookies, local storage, IndexedDB, service workers; `cache`: the HTTP cache.
    case persistent(data: String, cache: String)
    /// A WebDriver session's: the default web context's automation session (ephemeral, one per driver session).
    case automation
}

/// The network session the web views of one host session share (a modal's too: one cookie jar, one login):
/// where website data is kept, and the downloads its pages start, which land in the user's Downloads folder.
/// The host makes one and passes it to every window it opens.
@MainActor
package final class NetworkSession {
    /// Where the session keeps cookies, local storage, IndexedDB, service workers and the HTTP cache.
    package let websiteData: WebsiteData
    /// Sees each download that ended (from any window of the session): the file in the Downloads folder, and
    /// why it failed (`nil`: it finished).
    package var onDownload: (@MainActor (_ path: String, _ error: String?) -> Void)?
    private var made: OpaquePointer?

    package init(websiteData: WebsiteData) {
        self.websiteData = websiteData
    }

    /// WebKit's session, made when the first web view asks for it (so its cost counts in that view's start-up
    /// phase). Never freed: WebKit's downloads bookkeeping lives as long as it, and so does the process.
    var webKitSession: OpaquePointer {
        if let made { return made }
        let session: OpaquePointer
        switch websiteData {
        case .ephemeral:
            session = webkit_network_session_new_ephemeral()
        case .automation:
            session = strada_automation_network_session()
        case .persistent(let data, let cache):
            session = webkit_network_session_new(data, cache)
            // Cookies in an SQLite file in the data folder, so a login survives a restart.
            let cookies = (data as NSString).appendingPathComponent("cookies.sqlite")
            webkit_cookie_manager_set_persistent_storage(
                webkit_network_session_get_cookie_manager(session), cookies, WEBKIT_COOKIE_PERSISTENT_STORAGE_SQLITE)
        }
        made = session
        let folder = strada_downloads_folder()!
        defer { g_free(folder) }
        // The box lives as long as WebKit's session (never freed); it reaches this object only while it lives.
        let box = Unmanaged.passRetained(DownloadBox(self)).toOpaque()
        strada_connect_downloads(
            session, folder,
            { path, error, data in
                guard let data else { return }
                let file = path.map { String(cString: $0) } ?? ""
                let failure = error.map { String(cString: $0) }
                let box = Unmanaged<DownloadBox>.fromOpaque(data).takeUnretainedValue()
                MainActor.assumeIsolated { box.session?.onDownload?(file, failure) }
            }, box)
        return session
    }
}

/// The network session a download reports to (held weakly by WebKit's never-freed download handler).
private final class DownloadBox: @unchecked Sendable {  // created and used on the main thread
    weak var session: NetworkSession?
    init(_ session: NetworkSession) { self.session = session }
}
