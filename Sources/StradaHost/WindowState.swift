import Foundation

/// The main window's size and maximised state, kept between runs of an app (not under `--ephemeral`) in
/// `$XDG_STATE_HOME/<app id>/window.json`, as GNOME apps keep theirs.
struct WindowState: Codable, Equatable {
    var width: Int
    var height: Int
    var maximized: Bool

    /// The state saved last, or `nil` when there is none or it is not usable (it is then ignored).
    static func load(from path: String) -> WindowState? {
        guard let data = FileManager.default.contents(atPath: path),
            let state = try? JSONDecoder().decode(WindowState.self, from: data),
            (200...20000).contains(state.width), (150...20000).contains(state.height)
        else { return nil }
        return state
    }

    /// Writes the state (creating the folder); a failure costs only the restore.
    func save(to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
