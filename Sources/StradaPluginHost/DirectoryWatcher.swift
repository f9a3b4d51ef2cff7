import Dispatch
import Foundation

/// Watches plugins directories with inotify and reports each changed file once it has settled (no new
/// event for `settle` seconds). A file renamed into the folder is complete (the rename is atomic, as when a
/// build tool or `plugin install` moves its output into place), so it is reported on the next main-loop turn
/// without the wait, unless more events for it come in the same turn. A file just created is being written (a
/// linker deletes its output and writes a new file, which under load takes longer than the settle time): it is
/// reported once it is closed after writing, or after ``createdLimit`` seconds (a hard link is never written).
/// Only plugin builds are reported: a file still there when it is due is reported when it is a complete ELF shared
/// object (``PluginFileKind``), and ignored, without a word, when it is anything else — a build's object files
/// (`*.o`, `rustc`'s `*.rcgu.o`), a temporary file, a library still being written (its next write is reported
/// again). A file gone is always reported (it may have been a plugin). Callbacks run on the main queue.
@MainActor
package final class DirectoryWatcher {
    private let fd: Int32
    private var source: (any DispatchSourceRead)?
    private var directories: [Int32: String] = [:]
    private var pending: [String: DispatchWorkItem] = [:]
    /// Files created and not closed after writing yet.
    private var writing: Set<String> = []
    private let settle: Double
    /// Seconds a created file that is never closed after writing waits before it is reported.
    static let createdLimit = 2.0
    private let onChange: @MainActor (String) -> Void

    /// Starts watching `paths`. `onChange` gets the path of a shared library that was written or moved in, or of a
    /// file that was removed.
    package init(paths: [String], settle: Double = 0.05, onChange: @escaping @MainActor (String) -> Void) throws {
        self.settle = settle
        self.onChange = onChange
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE | IN_ATTRIB)
        for path in paths {
            let wd = inotify_add_watch(fd, path, mask)
            if wd >= 0 { directories[wd] = path }
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.drain() } }
        source.resume()
        self.source = source
    }

    isolated deinit {
        source?.cancel()
        close(fd)
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return }
            var offset = 0
            while offset + 16 <= count {
                let wd = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int32.self) }
                let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                let length = Int(
                    buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                offset += 16 + length
                guard let directory = directories[wd], !name.isEmpty, !name.hasPrefix(".") else { continue }
                let path = (directory as NSString).appendingPathComponent(name)
                if mask & UInt32(IN_CREATE) != 0 { writing.insert(path) }
                if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM) != 0 { writing.remove(path) }
                let delay = mask & UInt32(IN_MOVED_TO) != 0 ? 0 : writing.contains(path) ? Self.createdLimit : settle
                schedule(path, after: delay)
            }
        }
    }

    /// Whether a change to `path` is worth reporting: it is gone, or it is a complete shared library.
    nonisolated static func isReported(_ path: String) -> Bool {
        guard let kind = PluginFileKind(file: path) else { return access(path, F_OK) != 0 }
        return kind == .sharedLibrary
    }

    private func schedule(_ path: String, after delay: Double) {
        pending[path]?.cancel()
        let work = DispatchWorkItem { [weak self] in
            MainActor.assumeIsolated {
                self?.pending[path] = nil
                self?.writing.remove(path)
                guard Self.isReported(path) else { return }
                self?.onChange(path)
            }
        }
        pending[path] = work
        DispatchQueue.main.asyncAfter(deadline: .now() + delay, execute: work)
    }
}
