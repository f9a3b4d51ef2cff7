import Foundation

/// A probe child started ahead of time, for hot reload: starting the host executable was most of a reload's time
/// (mostly the dynamic loader mapping the engine's libraries; figures in docs/engine.md), so a spare child is started,
/// waits for a file's path on its stdin, and the next one is started as soon as it is used. A rebuilt plugin is still
/// validated in a child process before it is `dlopen`ed in the host; only the wait for the child to start is gone.
///
/// The path goes over a socket (written with `MSG_NOSIGNAL`), so a spare that died meanwhile cannot take the
/// host down with `SIGPIPE`; that probe then runs in a child started on the spot. When the host stops (or
/// dies), the spare's stdin ends and it exits without loading anything.
@MainActor
package final class SpareProbe {
    private let launcher: PluginProcessLauncher
    private var spare: (child: PluginProbe.Child, socket: Int32)?

    /// Starts the first spare child (none when the launcher has no ``PluginProcessLauncher/spareProbeArguments``).
    package init(launcher: PluginProcessLauncher) {
        self.launcher = launcher
        startSpare()
    }

    isolated deinit { stop() }

    /// Inspects `file` in the spare child (or a new one when there is none), as
    /// ``PluginProbe/inspect(file:launcher:timeout:)`` does, then starts the next spare.
    package func inspect(file: String, timeout: Double = PluginProbe.timeLimit) -> PluginStatus {
        let file = PluginLoader.absolutePath(file)
        defer { startSpare() }
        guard let (child, socket) = spare else {
            return PluginProbe.inspect(file: file, launcher: launcher, timeout: timeout)
        }
        spare = nil
        let line = Array((file + "\n").utf8)
        let sent = line.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(socket)
        guard sent == line.count else {
            kill(child.process.processIdentifier, SIGKILL)
            return PluginProbe.inspect(file: file, launcher: launcher, timeout: timeout)
        }
        return child.answer(for: file, timeout: timeout)
    }

    /// Lets the spare child go: its stdin ends and it exits.
    package func stop() {
        guard let (_, socket) = spare else { return }
        spare = nil
        close(socket)
    }

    private func startSpare() {
        guard spare == nil, let arguments = launcher.spareProbeArguments else { return }
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            return
        }
        let input = FileHandle(fileDescriptor: pair[1], closeOnDealloc: true)
        do {
            let child = try PluginProbe.Child.start(launcher.executable, arguments, input: input)
            spare = (child, pair[0])
        } catch {
            close(pair[0])
        }
        // The child has its own copy of its end now (or was never started): the parent's goes.
        try? input.close()
    }
}
