package import StradaCore

/// Manifest actions (`call`) of a plugin in a worker.
extension IsolatedPlugin {
    /// Calls the manifest action `action` in the worker (as ``LoadedPlugin/call(action:arguments:)`` does in
    /// process); `completion` gets the result, or why there is none. Nothing waits on the main thread. A declared
    /// plugin's worker is started by its first call, which is answered once it has loaded.
    package func call(
        action: String, arguments: [JSON], completion: @escaping @MainActor (_ result: JSON?, _ error: String?) -> Void
    ) {
        wake(for: "action \(action)")
        let number = nextCall
        nextCall += 1
        let restarting = "plugin \(id) is restarting; try again once it serves"
        guard takesCalls else {
            return completion(nil, refusal.map { "\($0); try again once it serves" } ?? restarting)
        }
        guard send(.call(call: number, action: action, arguments: arguments)) || firstWorkerEndedWhileLoading else {
            return completion(nil, restarting)
        }
        calls[number] = completion
    }

    /// Whether a call is sent now: a worker serves, or a declared plugin's first worker is loading (the call waits
    /// in its input for the hello, as the page's messages do). Not without a worker, nor while a worker restarts.
    private var takesCalls: Bool {
        guard let connection else { return false }
        return startingOnFirstUse || pending?.connection !== connection
    }

    /// Whether a declared plugin's first worker ended while loading, its end not handled yet (its input is closed
    /// already, so nothing can be sent to it). A call that could not be sent is kept then: handling that end fails
    /// it with why the worker did not load, as it fails the calls sent before the worker ended.
    private var firstWorkerEndedWhileLoading: Bool {
        startingOnFirstUse && connection?.acceptsInput == false
    }

    /// Ends every call waiting for a result: `completion(nil, "plugin <id>: <reason>")`, in call order.
    func failCalls(_ reason: String) {
        let waiting = calls
        calls = [:]
        for (_, completion) in waiting.sorted(by: { $0.key < $1.key }) { completion(nil, "plugin \(id): \(reason)") }
    }
}
