import Foundation
import Logging
import StradaCore
import StradaNavigation
import StradaPluginHost

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a path configuration comes from: a file shipped with the app, or the app's server.
package enum PathConfigurationSource: Sendable, Equatable, CustomStringConvertible {
    case file(String)
    case server(String)

    /// `text` as given to `--path-configuration`: an http(s) URL is the server, anything else a file path
    /// (`file://` URLs too).
    package init(_ text: String) {
        let lower = text.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            self = .server(text)
        } else if lower.hasPrefix("file://"), let url = URL(string: text) {
            self = .file(url.path)
        } else {
            self = .file((text as NSString).standardizingPath)
        }
    }

    package var description: String {
        switch self {
        case .file(let path): path
        case .server(let url): url
        }
    }
}

/// The path configuration in force, from its sources, as upstream loads it: sources in order, the last
/// one that loaded wins; a server's copy is cached on disk and the cached copy is used at start-up, before
/// the network answers (and when it never does). A document that cannot be used is one error line and
/// changes nothing: the previous (or cached) rules keep working.
@MainActor
final class PathConfigurationStore {
    /// The configuration in force now.
    private(set) var current = PathConfiguration()
    /// Sees each document applied (`rules` counts the document's own rules) and each one refused.
    var report: (@MainActor (_ source: String, _ outcome: Result<Int, PathConfigurationError>) -> Void)?
    /// Sees what an applied document holds that does nothing here (``PathConfiguration/notices``), once per
    /// document: a source's cached copy and the same text fetched again are not reported twice.
    var warn: (@MainActor (_ source: String, _ notices: [PathConfigurationNotice]) -> Void)?
    private let sources: [PathConfigurationSource]
    private var loaded: [PathConfiguration?]
    /// The text of the document last warned about, per source.
    private var warned: [String?]
    private let cacheDirectory: String
    private let logger: Logger

    init(sources: [PathConfigurationSource], cacheDirectory: String, logger: Logger) {
        self.sources = sources
        loaded = Array(repeating: nil, count: sources.count)
        warned = Array(repeating: nil, count: sources.count)
        self.cacheDirectory = cacheDirectory
        self.logger = logger
    }

    /// The default cache folder: `$XDG_CACHE_HOME/strada/path-configuration` (or `~/.cache/…`).
    static var defaultCacheDirectory: String {
        BaseDirectory.cache.appending("strada/path-configuration")
    }

    /// Files and cached server copies now (before the first visit is routed), then each server in the
    /// background.
    func load() {
        for (index, source) in sources.enumerated() {
            switch source {
            case .file(let path):
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    refuse(source, PathConfigurationError("cannot be read (check the path)"))
                    continue
                }
                apply(text, from: source, at: index)
            case .server(let url):
                if let cached = try? String(contentsOfFile: cachePath(for: url), encoding: .utf8) {
                    apply(cached, from: source, at: index, cached: true)
                }
                fetch(url, at: index)
            }
        }
    }

    private func fetch(_ url: String, at index: Int) {
        guard let address = URL(string: url) else {
            refuse(sources[index], PathConfigurationError("is not a valid URL"))
            return
        }
        var request = URLRequest(url: address, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 15)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let text = data.map { String(decoding: $0, as: UTF8.self) }
            let failure = error.map { "\($0.localizedDescription)" }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                let source = self.sources[index]
                if let failure {
                    self.logger.warning(
                        "path configuration \(url) could not be fetched (\(failure)); keeping the rules in force")
                    return
                }
                guard status == 200, let text else {
                    self.refuse(source, PathConfigurationError("answered HTTP \(status), not a document"))
                    return
                }
                if self.apply(text, from: source, at: index) {
                    self.store(text, for: url)
                }
            }
        }
        task.resume()
    }

    @discardableResult
    private func apply(_ text: String, from source: PathConfigurationSource, at index: Int, cached: Bool = false)
        -> Bool
    {
        do {
            let configuration = try PathConfiguration(json: text)
            loaded[index] = configuration
            current = loaded.compactMap { $0 }.last ?? PathConfiguration()
            let copy = cached ? " (cached copy)" : ""
            logger.info("path configuration \(source)\(copy): \(configuration.rules.count) rule(s)")
            report?(source.description, .success(configuration.rules.count))
            if !configuration.notices.isEmpty, warned[index] != text {
                warned[index] = text
                let count = configuration.notices.count
                let list = configuration.notices.map(\.description).joined(separator: "; ")
                logger.warning("path configuration \(source)\(copy): \(count) thing(s) do nothing here — \(list)")
                warn?(source.description, configuration.notices)
            }
            return true
        } catch {
            refuse(source, error, cached: cached)
            return false
        }
    }

    private func refuse(_ source: PathConfigurationSource, _ error: PathConfigurationError, cached: Bool = false) {
        let copy = cached ? " (cached copy)" : ""
        logger.error(
            "path configuration \(source)\(copy) \(error.reason); the rules in force are kept — fix the document")
        report?(source.description, .failure(error))
    }

    private func cachePath(for url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: a stable file name per URL
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let host = URLComponents(string: url)?.host ?? "server"
        return (cacheDirectory as NSString).appendingPathComponent("\(host)-\(String(hash, radix: 16)).json")
    }

    private func store(_ text: String, for url: String) {
        do {
            try FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
            try text.write(toFile: cachePath(for: url), atomically: true, encoding: .utf8)
        } catch {
            logger.warning("path configuration \(url) could not be cached in \(cacheDirectory): \(error)")
        }
    }
}
