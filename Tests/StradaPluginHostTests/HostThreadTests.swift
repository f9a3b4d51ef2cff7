import CStradaPlugin
import Foundation
import StradaABI
import Synchronization
import Testing

@testable import StradaPluginHost

/// The host table's functions act on the main thread only; elsewhere they answer STRADA_ERR_WRONG_THREAD.
/// The check learns the main thread's identity once (Foundation's `Thread.isMainThread` costs two system
/// calls on Linux) and compares identities after that.
struct HostThreadTests {
    /// Runs `body` on a new thread and waits for it.
    static func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            result.withLock { $0 = body() }
            done.signal()
        }.start()
        done.wait()
        return result.withLock { $0! }
    }

    @Test func theIdentityIsLearntOnceAndOtherThreadsAreNotAskedAfterThat() {
        let identity = ThreadIdentity()
        let asked = Mutex(0)
        @Sendable func ask(_ answer: Bool) -> () -> Bool {
            {
                asked.withLock { $0 += 1 }
                return answer
            }
        }
        // Before the main thread was seen, other threads are asked (and told no).
        #expect(Self.onNewThread { identity.isCurrent(ask: ask(false)) } == false)
        #expect(asked.withLock { $0 } == 1)
        // The first thread that is told yes is the main thread from then on: no more asking.
        #expect(identity.isCurrent(ask: ask(true)))
        #expect(asked.withLock { $0 } == 2)
        #expect(identity.isCurrent(ask: ask(false)))
        #expect(Self.onNewThread { identity.isCurrent(ask: ask(true)) } == false)
        #expect(asked.withLock { $0 } == 2)
    }

    @Test func aHostCallFromAThreadThatIsNotMainIsRefused() {
        let table = HostAPI.table(forPluginAt: "/plugins/threads.so")
        nonisolated(unsafe) let shared = table
        nonisolated(unsafe) let handle = OpaquePointer(bitPattern: 999_999)
        let statuses = Self.onNewThread {
            [
                withStradaString(#"{"id":"1"}"#) { shared.pointee.reply(shared, handle, $0) },
                withStradaString("b") { shared.pointee.remove_button(shared, handle, $0) },
            ]
        }
        #expect(statuses == [STRADA_ERR_WRONG_THREAD, STRADA_ERR_WRONG_THREAD])
    }
}
