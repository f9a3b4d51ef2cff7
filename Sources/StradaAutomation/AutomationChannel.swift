import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// The automation channel: ``AutomationEvent`` lines out, ``AutomationCommand`` lines in (see
/// docs/automation.md). Reads on the main queue, so it needs a loop that drains it (the host's GLib loop).
@MainActor
package final class AutomationChannel {
    private let write: @MainActor (AutomationEvent, String) -> Void
    /// The event names the filter lets through, worked out once: `wants` runs twice per bridge message.
    private let wanted: Set<AutomationEvent.Name>
    private var source: (any DispatchSourceRead)?
    private var buffer: [UInt8] = []

    /// A channel writing each event line with `write`, for events whose name starts with one of
    /// `eventPrefixes` (`[""]`: all). Command results, `controls` and `host.*` events are always written.
    package convenience init(eventPrefixes: [String] = [""], write: @escaping @MainActor (String) -> Void) {
        self.init(eventPrefixes: eventPrefixes, writeEvent: { _, line in write(line) })
    }

    /// The same, handing `writeEvent` the event with its line, for a writer that keeps some events (as
    /// ``AutomationSocket`` keeps the start-up events for clients still to come).
    package init(
        eventPrefixes: [String] = [""], writeEvent: @escaping @MainActor (AutomationEvent, String) -> Void
    ) {
        self.wanted = Set(
            AutomationEvent.Name.allCases.filter { name in
                name.isAlwaysReported
                    || eventPrefixes.contains(where: { name.rawValue.hasPrefix($0) || $0.hasPrefix(name.rawValue) })
            })
        self.write = writeEvent
    }

    /// Reads commands from `fd`, one JSON object per line. A line that is not a command is answered with
    /// `command.error`; `onEnd` runs at end of input.
    package func readCommands(
        fromFD fd: Int32, handler: @escaping @MainActor (AutomationCommand) -> Void,
        onEnd: @escaping @MainActor () -> Void = {}
    ) {
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.readAvailable(fd, handler: handler, onEnd: onEnd) }
        }
        source.resume()
        self.source = source
    }

    private func readAvailable(
        _ fd: Int32, handler: @MainActor (AutomationCommand) -> Void, onEnd: @MainActor () -> Void
    ) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = read(fd, &chunk, chunk.count)
        guard count > 0 else {
            source?.cancel()
            source = nil
            return onEnd()
        }
        buffer.append(contentsOf: chunk[0..<count])
        while let newline = buffer.firstIndex(of: 0x0A) {
            let line = String(decoding: buffer[..<newline], as: UTF8.self)
            buffer.removeSubrange(...newline)
            guard !line.isEmpty else { continue }
            do {
                handler(try AutomationCommand(line: line))
            } catch {
                emit(.commandError(command: nil, error: error.reason, details: ["input": .string(line)]))
            }
        }
    }

    /// Writes `event` if the channel reports its name.
    package func emit(_ event: AutomationEvent) {
        guard wants(event.name) else { return }
        write(event, event.line)
    }

    /// Whether events named `name` are reported (ask before building an event on the message path).
    package func wants(_ name: AutomationEvent.Name) -> Bool { wanted.contains(name) }
}
