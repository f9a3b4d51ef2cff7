import Foundation
import Logging

/// The user's answers to pages' permission requests, per origin and kind, remembered for the app: in
/// `$XDG_DATA_HOME/<app id>/permissions.json`, or for this run only when the app keeps no data.
@MainActor
final class PermissionStore {
    private var answers: [String: [String: Bool]] = [:]
    private let file: String?
    private let logger: Logger

    /// `file`: where answers are kept (`nil`: this run only).
    init(file: String?, logger: Logger) {
        self.file = file
        self.logger = logger
        guard let file, let data = FileManager.default.contents(atPath: file) else { return }
        if let stored = try? JSONDecoder().decode([String: [String: Bool]].self, from: data) {
            answers = stored
        } else {
            logger.warning("\(file) is not a permissions file; the questions will be asked again")
        }
    }

    /// The remembered answer for `kind` from `origin`, if the user gave one.
    func answer(origin: String, kind: String) -> Bool? { answers[origin]?[kind] }

    func remember(origin: String, kind: String, allowed: Bool) {
        answers[origin, default: [:]][kind] = allowed
        guard let file else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(answers).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            logger.warning("the answer could not be saved in \(file): \(error)")
        }
    }

    /// The question a dialog asks for `kind` from `host`.
    static func question(kind: String, host: String) -> (title: String, message: String) {
        let what: String =
            switch kind {
            case "notifications": "show notifications"
            case "geolocation": "know your location"
            case "camera": "use your camera"
            case "microphone": "use your microphone"
            case "camera-and-microphone": "use your camera and microphone"
            case "screen": "share your screen"
            default: "use a device or feature of this computer"
            }
        return (
            "Allow \(host) to \(what)?",
            "The answer is remembered for this app; \(host) can ask again only if it is forgotten."
        )
    }
}
