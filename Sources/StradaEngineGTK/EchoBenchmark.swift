import StradaCore

/// Round-trip timing measured where messages arrive in native code, for the bridge channel and the bare
/// engine echo channel alike. The page sends messages one after another (the next only after the previous
/// reply's callback ran), each tagged `{run, seq}`; the gap between two consecutive arrivals of one run is
/// one full round trip: native handling → reply evaluated → web callback → next send → arrival.
/// Runs numbered 100 or below are warm-up and not counted.
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

    private func summary() -> JSON {
        var gaps: [String: [Double]] = [:]
        var previous: [String: (run: Double, seq: Double, time: UInt64)] = [:]
        for arrival in arrivals {
            guard let value = try? JSON(parsing: arrival.text) else { continue }
            let tags = arrival.channel == WebView.echoChannel ? value : value["data"]
            guard case .number(let run)? = tags?["run"], run > 100, case .number(let seq)? = tags?["seq"] else {
                continue
            }
            let kind = arrival.channel == WebView.echoChannel ? "floor" : "bridge"
            if let last = previous[kind], last.run == run, last.seq + 1 == seq {
                gaps[kind, default: []].append(Double(arrival.time - last.time) / 1e6)
            }
            previous[kind] = (run, seq, arrival.time)
        }
        var result: JSONObject = [:]
        for (kind, samples) in gaps { result[kind] = Self.stats(samples) }
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
