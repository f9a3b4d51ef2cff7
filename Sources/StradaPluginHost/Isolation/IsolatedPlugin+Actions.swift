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
        guard let connection, pending?.connection !== connection || startingOnFirstUse else {
            if let refusal { return completion(nil, "\(refusal); try again once it serves") }
            return completion(nil, "plugin \(id) is restarting; try again once it serves")
        }
        // A first worker that ended already while loading fails the call with why, once its end is handled.
        guard
            send(.call(call: number, action: action, arguments: arguments))
                || (startingOnFirstUse && !connection.acceptsInput)
        else {
            return completion(nil, "plugin \(id) is restarting; try again once it serves")
        }
        calls[number] = completion
    }

    /// Ends every call waiting for a result: `completion(nil, "plugin <id>: <reason>")`, in call order.
    func failCalls(_ reason: String) {
        let waiting = calls
        calls = [:]
        for (_, completion) in waiting.sorted(by: { $0.key < $1.key }) { completion(nil, "plugin \(id): \(reason)") }
    }
}
