import Foundation
import Testing

@testable import StradaEngineGTK

/// What answers a file chooser: files as given, a folder (an `<input webkitdirectory>`'s answer) as the regular
/// files under it, in name order, without hidden ones.
@Suite struct FileChoiceTests {
    @Test func aFolderIsTheFilesUnderItAndAFileIsItself() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("file-choice-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("trip").path, single = root.appendingPathComponent("one.txt").path
        try FileManager.default.createDirectory(atPath: folder + "/day2/empty", withIntermediateDirectories: true)
        for file in [single, folder + "/b.txt", folder + "/a.txt", folder + "/day2/c.txt", folder + "/.hidden"] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        }
        #expect(
            WindowControls.files(answering: [single, folder])
                == [single, folder + "/a.txt", folder + "/b.txt", folder + "/day2/c.txt"])
        #expect(WindowControls.files(answering: [folder + "/day2/empty"]).isEmpty)
    }
}
