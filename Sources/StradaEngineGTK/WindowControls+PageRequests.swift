import CWebKitGTK
import Foundation
import StradaCore

/// A page's file chooser (`<input type=file>`) and print request (`window.print()`): the desktop's own
/// chooser (`GtkFileChooserNative`, the file chooser portal where there is one) and GTK's print dialog — or,
/// under automation (``asksTheUser`` off), controls reported to the channel: `page.file-chooser` (kind
/// `file-chooser`: `multiple`, `accept`, `directories`), answered with paths or dismissed, and `page.print`
/// (kind `print`: `url`), answered with a PDF file's path (printed without a dialog) or dismissed.
extension WindowControls {
    /// The file chooser's control id.
    nonisolated package static let fileChooserID = "page.file-chooser"
    /// The print request's control id.
    nonisolated package static let printID = "page.print"

    struct FileChooserEntry {
        let multiple: Bool
        let accept: [String]
        /// An `<input webkitdirectory>`: a folder is chosen, and the files under it are the answer.
        let folders: Bool
        /// Answers the page: the paths chosen, none when cancelled (exactly once).
        let answer: @MainActor ([String]) -> Void

        var snapshot: ControlSnapshot {
            ControlSnapshot(
                id: WindowControls.fileChooserID, kind: "file-chooser",
                properties: [
                    "multiple": .bool(multiple), "accept": .array(accept.map(JSON.string)),
                    "directories": .bool(folders),
                ])
        }
    }

    struct PrintEntry {
        let url: String
        /// Prints to a PDF file at the path; drops the request.
        let toFile: @MainActor (String) -> Void
        let cancel: @MainActor () -> Void

        var snapshot: ControlSnapshot {
            ControlSnapshot(id: WindowControls.printID, kind: "print", properties: ["url": .string(url)])
        }
    }

    /// The page opened a file chooser: the native chooser (`native`), or under automation the control
    /// `page.file-chooser` until it is answered (a chooser still open is cancelled first).
    func presentFileChooser(
        multiple: Bool, accept: [String], folders: Bool, native: @escaping @MainActor () -> Void,
        answer: @escaping @MainActor ([String]) -> Void
    ) {
        guard !asksTheUser else { return native() }
        closeFileChooser(answering: [])
        let entry = FileChooserEntry(multiple: multiple, accept: accept, folders: folders, answer: answer)
        fileChooser = entry
        observer?(.added(entry.snapshot))
    }

    /// The page called `window.print()`: GTK's print dialog (`native`), or under automation the control
    /// `page.print` until it is answered.
    func presentPrint(
        url: String, native: @escaping @MainActor () -> Void, toFile: @escaping @MainActor (String) -> Void,
        cancel: @escaping @MainActor () -> Void
    ) {
        guard !asksTheUser else { return native() }
        if let open = printRequest {
            printRequest = nil
            open.cancel()
            observer?(.removed(id: Self.printID))
        }
        let entry = PrintEntry(url: url, toFile: toFile, cancel: cancel)
        printRequest = entry
        observer?(.added(entry.snapshot))
    }

    /// Answers the file chooser `id` with `paths` (files that exist, or for a folder input folders; one unless it
    /// allows several).
    package func chooseFiles(id: String, paths: [String]) throws(ControlActionError) {
        guard id == Self.fileChooserID, let entry = fileChooser else {
            throw try wrongKindOrMissing(id, expected: "file-chooser")
        }
        guard !paths.isEmpty else { throw .refused(id, "give at least one path, or dismiss it to cancel") }
        guard entry.multiple || entry.folders || paths.count == 1 else {
            throw .refused(id, "the page's input takes one file (no \"multiple\"); got \(paths.count)")
        }
        let kind = entry.folders ? "folder" : "file"
        for path in paths {
            var isFolder: ObjCBool = false
            guard path.hasPrefix("/"), FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
                isFolder.boolValue == entry.folders
            else { throw .refused(id, "\(path) is not an existing \(kind)'s absolute path") }
        }
        closeFileChooser(answering: paths)
    }

    /// Prints the page of print request `id` to a PDF file at `path`, without a dialog; the outcome is
    /// reported when the file is written (`print.finished`, `print.failed`).
    package func print(id: String, toPDF path: String) throws(ControlActionError) {
        guard id == Self.printID, let entry = printRequest else { throw try wrongKindOrMissing(id, expected: "print") }
        guard path.hasPrefix("/") else { throw .refused(id, "\(path) is not an absolute path") }
        printRequest = nil
        printingTo = path
        observer?(.removed(id: Self.printID))
        entry.toFile(path)
    }

    /// Cancels the file chooser or print request `id`; `false` when `id` is neither.
    func cancelPageRequest(id: String) -> Bool {
        if id == Self.fileChooserID, fileChooser != nil {
            closeFileChooser(answering: [])
            return true
        }
        if id == Self.printID, let entry = printRequest {
            printRequest = nil
            entry.cancel()
            observer?(.removed(id: Self.printID))
            return true
        }
        return false
    }

    /// A new document replaced the page that asked: its file chooser is cancelled and its print request dropped.
    func dropPageRequests() {
        _ = cancelPageRequest(id: Self.fileChooserID)
        _ = cancelPageRequest(id: Self.printID)
    }

    /// A print job ended (`error` nil: its file is written).
    func printEnded(error: String?) {
        let path = printingTo ?? ""
        printingTo = nil
        observer?(.printed(path: path, error: error))
    }

    /// What answers a file chooser given `paths`: each file as it is, each folder replaced by the regular files
    /// under it (recursively, in name order, hidden ones left out) — what an `<input webkitdirectory>` gets.
    /// (Given the folder itself, WebKit's web process — in the bubblewrap sandbox — sent the page the folder as
    /// one empty file.)
    nonisolated static func files(answering paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                return [path]
            }
            let folder = URL(fileURLWithPath: path)
            let found = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            var files: [String] = []
            while let url = found?.nextObject() as? URL {
                if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                    files.append(url.path)
                }
            }
            return files.sorted()
        }
    }

    /// The snapshots of the requests waiting for an answer.
    var pageRequestSnapshots: [ControlSnapshot] {
        (fileChooser.map { [$0.snapshot] } ?? []) + (printRequest.map { [$0.snapshot] } ?? [])
    }

    private func closeFileChooser(answering paths: [String]) {
        guard let entry = fileChooser else { return }
        fileChooser = nil
        observer?(.removed(id: Self.fileChooserID))
        entry.answer(paths)
    }
}
