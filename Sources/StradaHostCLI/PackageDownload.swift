import Foundation
import StradaPluginHost

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads a plugin package from an http(s) URL for `plugin install` and `plugin inspect` (here, not in the
/// plugin host library: FoundationNetworking would load libcurl into every worker). A failure is one line
/// that says what the server answered (`HTTP 404 Not Found`) or why there was no answer.
enum PackageDownload {
    /// The body of a `200` answer to `url`; otherwise the error says why not (at most `timeout` seconds).
    static func data(from url: String, timeout: Double = 60) throws(PluginPackageError) -> Data {
        guard let address = URL(string: url), ["http", "https"].contains(address.scheme?.lowercased() ?? "") else {
            throw PluginPackageError("\(url) is not an http(s) URL")
        }
        let request = URLRequest(url: address, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            answer.set(data, (response as? HTTPURLResponse)?.statusCode, error.map { $0.localizedDescription })
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + timeout + 5) == .success else {
            throw PluginPackageError("\(url) could not be downloaded: no answer in \(Int(timeout)) s")
        }
        let (data, status, failure) = answer.value
        if let failure { throw PluginPackageError("\(url) could not be downloaded: \(failure)") }
        guard let status, status == 200, let data else {
            throw PluginPackageError("\(url) could not be downloaded: the server answered \(describe(status ?? 0))")
        }
        return data
    }

    /// `HTTP 404 Not Found`.
    static func describe(_ status: Int) -> String {
        let reason = HTTPURLResponse.localizedString(forStatusCode: status)
        return "HTTP \(status)" + (reason.isEmpty ? "" : " " + reason.capitalized)
    }

    private final class Answer: @unchecked Sendable {  // written once by the task, read after the semaphore
        private let lock = NSLock()
        private var stored: (Data?, Int?, String?) = (nil, nil, nil)
        func set(_ data: Data?, _ status: Int?, _ failure: String?) {
            lock.withLock { stored = (data, status, failure) }
        }
        var value: (Data?, Int?, String?) { lock.withLock { stored } }
    }
}
