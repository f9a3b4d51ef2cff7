import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The worker's main thread: one `poll` on the host's input and on libdispatch's main-queue descriptor, as the
/// host's GLib main loop waits (`MainLoop` in the engine). A message from the host wakes this thread and is
/// handled here: with a dispatch read source, libdispatch's own thread woke first and then woke this one through
/// the main queue, two wake-ups per message instead of one. Work plugins queue on the main queue
/// (`run_on_main_thread`, timers) is drained here too, on the main thread plugins are promised.
enum WorkerMainLoop {
    private typealias Handle = @convention(c) () -> Int32
    private typealias Drain = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// libdispatch's main-queue hooks (the ones CoreFoundation's run loop and the host's GLib loop use): the
    /// descriptor that becomes readable when the main queue has work, and the call that runs it. Swift's
    /// libdispatch on Linux always exports them; they are looked up because this library declares no C module.
    private static let hooks: (handle: Handle, drain: Drain) = {
        guard let handle = dlsym(nil, "_dispatch_get_main_queue_handle_4CF"),
            let drain = dlsym(nil, "_dispatch_main_queue_callback_4CF")
        else { fatalError("worker: this libdispatch has no main-queue hooks") }
        return (unsafeBitCast(handle, to: Handle.self), unsafeBitCast(drain, to: Drain.self))
    }()

    /// Runs forever: `onInput` when `input` is readable (it reads it), the main queue's work when there is some.
    static func run(input: Int32, onInput: @MainActor () -> Void) -> Never {
        let queue = hooks.handle()
        let readable = Int16(POLLIN)
        var fds = [pollfd(fd: input, events: readable, revents: 0), pollfd(fd: queue, events: readable, revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                fatalError("worker: poll failed: \(String(cString: strerror(errno)))")
            }
            // The main queue first: work queued before a message (a timer's, a plugin's) runs in its order.
            if fds[1].revents != 0 {
                var counter: UInt64 = 0
                _ = read(queue, &counter, 8)  // reset the eventfd (non-blocking)
                hooks.drain(nil)
            }
            if fds[0].revents != 0 { MainActor.assumeIsolated { onInput() } }
        }
    }
}
