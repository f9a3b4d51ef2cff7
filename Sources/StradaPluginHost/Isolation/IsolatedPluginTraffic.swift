import Dispatch
import Foundation
import StradaAutomation
import StradaCore

/// What an ``IsolatedPlugin`` does with the traffic of the worker serving: the heartbeat, and the worker's
/// lines handled in order on the main thread, a few milliseconds at a time.
extension IsolatedPlugin {
    /// Starts the once-a-second heartbeat (kept across restarts and reloads; stopped by ``shutdown()``).
    func startHeartbeat() {
        guard heartbeat == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.beat() } }
        timer.resume()
        heartbeat = timer
    }

    /// Once a second: a worker that made no progress (read or wrote nothing) and did not answer the last
    /// heartbeat for ``silenceLimit`` seconds is killed. A large message being read or written is progress.
    func beat() {
        guard let connection, pending?.connection !== connection else { return }
        if awaitingPong {
            let silent = min(Date().timeIntervalSince(lastPong), Double(connection.idleNanoseconds) / 1e9)
            guard silent > Self.silenceLimit else { return }
            logger.error("plugin \(id) (\(path)) stopped answering for \(Int(Self.silenceLimit)) s: killing its worker")
            connection.kill()
            return
        }
        awaitingPong = true
        lastPong = Date()
        connection.send(WorkerMessage.ping.line)
    }

    /// Handles the worker's lines in order, for at most ``drainBudget`` at a time: a burst of 20,000 replies
    /// does not keep the main thread from an automation command or a frame for longer than that. Replies for
    /// one page are delivered to it together, as replies made while a page's batch is received are.
    func drain() {
        guard !draining else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        while inboxHead < inbox.count, DispatchTime.now().uptimeNanoseconds - start <= Self.drainBudget {
            let bridge = bridge(for: inbox[inboxHead].message)
            if let bridge {
                bridge.collectingReplies { drainRun(for: bridge, since: start) }
            } else {
                drainRun(for: nil, since: start)
            }
        }
        if inboxHead == inbox.count {
            inbox = []
            inboxHead = 0
            return
        }
        draining = true
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                self.draining = false
                self.drain()
            }
        }
    }

    /// Handles lines while they are replies for `bridge`'s page (or, for `nil`, not replies) and time is left.
    func drainRun(for bridge: Bridge?, since start: UInt64) {
        repeat {
            let (incoming, batch) = inbox[inboxHead]
            inboxHead += 1
            switch incoming {
            case .message(let message): handle(message)
            case .reply(let instance, let message): _ = components[instance]?.replyFromPlugin(message: message)
            }
            if let (connection, bytes) = batch { connection.handled(bytes: bytes) }
            if inboxHead % 64 == 0, DispatchTime.now().uptimeNanoseconds - start > Self.drainBudget { return }
        } while inboxHead < inbox.count && self.bridge(for: inbox[inboxHead].message) === bridge
    }

    /// The bridge of the page a reply goes to.
    func bridge(for incoming: WorkerConnection.Incoming) -> Bridge? {
        switch incoming {
        case .reply(let instance, _), .message(.replyToEvent(let instance, _, _)): components[instance]?.bridge
        default: nil
        }
    }

    func handle(_ message: WorkerMessage) {
        switch message {
        case .pong:
            lastPong = Date()
            awaitingPong = false
        case .reply(let instance, let json):
            var bytes = json
            _ = bytes.withUTF8 { components[instance]?.takeReply(UnsafeRawBufferPointer($0)) { json } }
        case .replyToEvent(let instance, let event, let data):
            _ = components[instance]?.replyFromPlugin(toEvent: event, dataJSON: data)
        case .setButton(let instance, let button): _ = components[instance]?.setButton(HeaderButton(json: button))
        case .removeButton(let instance, let id): _ = components[instance]?.removeButton(id: id)
        case .show(let instance, let id, let spec): _ = components[instance]?.showControl(id: id, specJSON: spec)
        case .remove(let instance, let id): _ = components[instance]?.removeControl(id: id)
        case .callResult(let call, let result, let error): calls.removeValue(forKey: call)?(result, error)
        default: break  // host → worker operations never come back
        }
    }
}
