import StradaCore

/// The checks a plugin's host calls get before anything is done with them, and the line each refusal writes — in
/// one place, so a plugin in the host's process (``ForeignComponent``) and one in a worker (``WorkerInstance``)
/// get the same answer, `STRADA_ERR_INVALID_ARGUMENT`, and the same line for the same mistake. (The host checks a
/// worker's calls again when they arrive: it trusts no worker.)
enum PluginCallCheck {
    /// Why a call was refused: the line to log.
    struct Refusal: Error {
        let line: String
    }

    /// `reply` and `reply_with`'s JSON: a whole bridge message.
    static func reply(_ json: String, plugin: String) throws(Refusal) -> Message {
        do {
            return try Message(wireText: json)
        } catch {
            throw Refusal(line: "plugin \(plugin) sent an invalid reply: \(error)")
        }
    }

    /// `reply_to_event`'s data: empty (the message's own data is sent back) or a JSON object.
    static func replyData(_ dataJSON: String, event: String, plugin: String) throws(Refusal) {
        if dataJSON.isEmpty { return }
        let data: JSON
        do {
            data = try JSON(parsing: dataJSON)
        } catch {
            throw Refusal(line: "plugin \(plugin) replied to \(event) with data that is not JSON (\(error))")
        }
        guard case .object = data else {
            throw Refusal(line: "plugin \(plugin) replied to \(event) with data that is not a JSON object")
        }
    }

    /// `show_control`'s spec: valid JSON describing a control the host knows.
    static func control(id: String, specJSON: String, plugin: String) throws(Refusal) -> ControlSpec {
        do {
            return try ControlSpec(id: id, json: JSON(parsing: specJSON))
        } catch {
            throw Refusal(line: "plugin \(plugin) sent an invalid control \(id): \(error)")
        }
    }
}
