import StradaCore
import StradaTesting

/// Messages as the page's web library sends them: `data` carries `metadata.url`, the harness's page URL
/// (the bridge delivers only those to the page's components).
enum PageMessages {
    /// The page URL every harness here is opened at (``BridgeHarness``'s default).
    static let url = "https://app.test/"

    /// The wire text of `event` from the web component `component`, with `data` (a JSON object's text)
    /// and the page's metadata added to it.
    static func message(_ component: String, _ id: String, _ event: String, _ data: String = "{}") -> String {
        let metadata = #""metadata":{"url":"\#(url)"}}"#
        let withPage = data.dropLast() + (data == "{}" ? "" : ",") + metadata
        return #"{"id":"\#(id)","component":"\#(component)","event":"\#(event)","data":\#(withPage)}"#
    }
}

extension BridgeHarness {
    /// Sends `event` of `component` with `data` (a JSON object's text) as the page would.
    func send(_ component: String, _ id: String, _ event: String, _ data: String = "{}") {
        send(json: PageMessages.message(component, id, event, data))
    }
}
