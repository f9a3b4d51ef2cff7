import StradaCore

/// Round-trip timing measured where messages arrive in native code, for the bridge channel and the bare
/// engine echo channel alike. The page sends messages one after another (the next only after the previous
/// reply's callback ran), each tagged `{run, seq}`; the gap between two consecutive arrivals of one run is
/// one full round trip: native handling → reply evaluated → web callback → next send → arrival.
/// Runs numbered 100 or below are warm-up and not counted. Each gap is also split where the reply left native
/// code (``WebView/replyMark``): `host` — from the message's arrival to its reply handed to WebKit (parsing,
/// routing, the plugin, the reply's text; under `--isolate` the worker's hop too) — and `web` — from there to
/// the next arrival (WebKit's delivery, the page's scripts, the next send). A run numbered from
/// ``firstMixedRun`` on mixes six ways there and back message by message (the page's hop-by-hop run): its gaps
/// are filed by the way the reply came back and the way the next message went out.
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

    /// The kind of a sequential run's message, from its channel and its one-letter tag `k` (the echo's own
    /// members; the bridge's `data`), which the page adds where a message leaves out part of the way
    /// (Benchmarks/web/roundtrip.html): the bridge from the adapter on ("a": `nativeBridge.receive`) or from
    /// the relay on ("r": the page dispatches the relay's DOM event itself), and the echo through a DOM event
    /// to the relay's isolated world ("e", ``WebView/echoRelaySource``) or answered as the bridge's replies are
    /// written ("j", "floor_json"). An echo padded to the bridge's message size is "floor_sized".
    private static func kind(channel: String, message value: JSON) -> String {
        if channel == WebView.echoChannel {
            if case .string("e")? = value["k"] { return "floor_event" }
            if case .string("j")? = value["k"] { return "floor_json" }
            return value["pad"] == nil ? "floor" : "floor_sized"
        }
        switch value["data"]?["k"] {
        case .string("a")?: return "bridge_adapter"
        case .string("r")?: return "bridge_relay"
        default: return "bridge"
        }
    }

    /// The way a reply to a message of `kind` comes back: the bridge's (host, adapter, web library), the echo's,
    /// the echo's with a message padded to the bridge's size, or that echo's written as the bridge's replies are
    /// ("floor_json": a string literal the page parses).
    private static func replyWay(of kind: String) -> String {
        if kind.hasPrefix("bridge") { return "bridge" }
        return kind == "floor" || kind == "floor_json" ? kind : "floor_sized"
    }

    /// Runs numbered from this on mix the kinds at random, message by message: each gap is counted under
    /// `mixed_<the reply's way>_<the next message's kind>`.
    static let firstMixedRun = 10_000.0

    private func summary() -> JSON {
        var gaps: [String: [Double]] = [:]
        var bytes: [String: [Double]] = [:]
        var previous: [String: (run: Double, seq: Double, time: UInt64)] = [:]
        var replied: [String: UInt64] = [:]  // when the last reply of each kind left native code
        // The kind of the last message that arrived on each channel: its reply is of that kind.
        var echoKind = "floor", bridgeKind = "bridge"
        var mixed: (kind: String, seq: Double, time: UInt64)?  // the last arrival of a mixed run
        var mixedReplied: UInt64?  // when the first reply after it left native code
        for arrival in arrivals {
            if arrival.channel == WebView.replyMark || arrival.channel == WebView.echoReplyMark {
                replied[arrival.channel == WebView.echoReplyMark ? echoKind : bridgeKind] = arrival.time
                if mixed != nil, mixedReplied == nil { mixedReplied = arrival.time }
                continue
            }
            guard let value = try? JSON(parsing: arrival.text) else { continue }
            let kind = Self.kind(channel: arrival.channel, message: value)
            if arrival.channel == WebView.echoChannel { echoKind = kind } else { bridgeKind = kind }
            let tags = arrival.channel == WebView.echoChannel ? value : value["data"]
            if case .number(let run)? = tags?["run"], run >= Self.firstMixedRun, case .number(let seq)? = tags?["seq"] {
                if let last = mixed, last.seq + 1 == seq {
                    let cell = "mixed_\(Self.replyWay(of: last.kind))_\(kind)"
                    gaps[cell, default: []].append(Double(arrival.time - last.time) / 1e6)
                    if let reply = mixedReplied, reply >= last.time {
                        gaps[cell + "_host", default: []].append(Double(reply - last.time) / 1e6)
                        gaps[cell + "_web", default: []].append(Double(arrival.time - reply) / 1e6)
                    }
                }
                mixed = (kind, seq, arrival.time)
                mixedReplied = nil
                continue
            }
            bytes[kind, default: []].append(Double(arrival.text.utf8.count))
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
