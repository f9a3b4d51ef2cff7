import StradaCore

/// Round-trip timing measured where messages arrive in native code, for the bridge channel and the bare
/// engine echo channel alike. The page sends messages one after another (the next only after the previous
/// reply's callback ran), each tagged `{run, seq}`; the gap between two consecutive arrivals of one run is
/// one full round trip: native handling → reply evaluated → web callback → next send → arrival.
/// Runs numbered 100 or below are warm-up and not counted. Each gap is also split where the reply left native
/// code (``WebView/replyMark``): `host` — from the message's arrival to its reply handed to WebKit (parsing,
/// routing, the plugin, the reply's text; under `--isolate` the worker's hop too) — and `web` — from there to
/// the next arrival (WebKit's delivery, the page's scripts, the next send).
/// (Pages only get a 1 ms `performance.now()` in WebKit, too coarse to time sub-millisecond trips there.)
@MainActor
final class EchoBenchmark {
    private var arrivals: [(channel: String, time: UInt64, text: String)] = []
    private let report: @MainActor (JSON) -> Void

    init(report: @escaping @MainActor (JSON) -> Void) {
        self.report = report
        arrivals.reserveCapacity(20_000)
    }

    func record(channel: String, time: UInt64, text: String) {
        if channel == WebView.echoChannel, text.contains("\"benchmark\":\"done\"") {
            var result = summary()
            if case .object(var fields) = result, let page = (try? JSON(parsing: text))?["page"] {
                fields["page"] = page
                result = .object(fields)
            }
            report(result)
            arrivals.removeAll(keepingCapacity: true)
            return
        }
        // Only the small messages of the sequential runs are read back; large ones are not kept.
        arrivals.append((channel, time, text.utf8.count < 4096 ? text : ""))
    }

    /// The kind a channel or reply mark belongs to: "floor" (the engine echo) or "bridge".
    private static func kind(of channel: String) -> String {
        channel == WebView.echoChannel || channel == WebView.echoReplyMark ? "floor" : "bridge"
    }

    private func summary() -> JSON {
        var gaps: [String: [Double]] = [:]
        var bytes: [String: [Double]] = [:]
        var previous: [String: (run: Double, seq: Double, time: UInt64)] = [:]
        var replied: [String: UInt64] = [:]  // when the last reply of each kind left native code
        var echoKind = "floor"  // the kind of the last echo that arrived: its reply is of that kind
        for arrival in arrivals {
            var kind = Self.kind(of: arrival.channel)
            if arrival.channel == WebView.replyMark || arrival.channel == WebView.echoReplyMark {
                replied[arrival.channel == WebView.echoReplyMark ? echoKind : kind] = arrival.time
                continue
            }
            guard let value = try? JSON(parsing: arrival.text) else { continue }
            if arrival.channel == WebView.echoChannel {
                // An echo padded to the bridge's message size is its own floor.
                kind = value["pad"] == nil ? "floor" : "floor_sized"
                echoKind = kind
            }
            bytes[kind, default: []].append(Double(arrival.text.utf8.count))
            let tags = arrival.channel == WebView.echoChannel ? value : value["data"]
            guard case .number(let run)? = tags?["run"], run > 100, case .number(let seq)? = tags?["seq"] else {
                replied[kind] = nil
                continue
            }
            if let last = previous[kind], last.run == run, last.seq + 1 == seq {
                gaps[kind, default: []].append(Double(arrival.time - last.time) / 1e6)
                if let reply = replied[kind], reply >= last.time {
                    gaps[kind + "_host", default: []].append(Double(reply - last.time) / 1e6)
                    gaps[kind + "_web", default: []].append(Double(arrival.time - reply) / 1e6)
                }
            }
            previous[kind] = (run, seq, arrival.time)
            replied[kind] = nil
        }
        var result: JSONObject = [:]
        for (kind, samples) in gaps { result[kind] = Self.stats(samples) }
        for (kind, sizes) in bytes { result[kind + "_bytes"] = Self.stats(sizes) }
        return .object(result)
    }

    static func stats(_ samples: [Double]) -> JSON {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .null }
        func at(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))] }
        let mean = sorted.reduce(0, +) / Double(sorted.count)
        return [
            "n": .number(Double(sorted.count)), "p50": .number(at(0.5)), "p99": .number(at(0.99)),
            "max": .number(sorted.last!), "mean": .number(mean),
        ]
    }
}
