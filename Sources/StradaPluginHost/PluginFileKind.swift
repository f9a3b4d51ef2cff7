#if canImport(Glibc)
import Glibc
#endif

/// What a file in a watched plugins folder is, by its content alone — what `--watch` asks before it treats a
/// changed file as a new build. Only a complete ELF shared object (`e_type` `ET_DYN`) can be a plugin; a build
/// leaves much else beside its output (a compiler's object files, `rustc`'s `*.rcgu.o`, an editor's temporary
/// files), and a library being written is, until its last byte, shorter than its own headers say.
package enum PluginFileKind: Equatable, Sendable {
    /// A complete ELF shared object: a plugin, or a build of one.
    case sharedLibrary
    /// An ELF file shorter than its headers say (being written), or a file shorter than an ELF header that begins
    /// like one.
    case incomplete
    /// An ELF file that is not a shared object: an object file (`ET_REL`), an executable (`ET_EXEC`), a core dump.
    case otherELF(type: Int)
    /// Not an ELF file (no `\x7FELF` magic): a temporary file, a manifest, anything else.
    case notELF

    /// How many leading bytes ``init(prefix:fileSize:)`` needs at most to judge a usual file: the ELF header and,
    /// right after it where linkers put it, the program header table.
    package static let prefixLength = 64 * 1024

    /// Judges a file of `fileSize` bytes from its first bytes, `prefix` (the whole file when shorter). A shared
    /// object is complete when the file reaches the end of its section header table, its program header table and
    /// every segment the program headers place in the file — linkers write the section headers last, at the end.
    package init(prefix: [UInt8], fileSize: Int) {
        let magic: [UInt8] = [0x7F, 0x45, 0x4C, 0x46]  // "\x7FELF"
        guard prefix.count >= 4 else {
            self = !prefix.isEmpty && Array(magic.prefix(prefix.count)) == prefix ? .incomplete : .notELF
            return
        }
        guard Array(prefix[0..<4]) == magic else {
            self = .notELF
            return
        }
        let is64 = prefix.count > 4 && prefix[4] == 2
        let bigEndian = prefix.count > 5 && prefix[5] == 2
        let headerSize = is64 ? 64 : 52
        guard prefix.count >= headerSize, fileSize >= headerSize else {
            self = .incomplete
            return
        }
        func field(_ offset: Int, _ width: Int) -> Int? {
            guard offset >= 0, offset + width <= prefix.count else { return nil }
            var value = 0
            for index in 0..<width {
                let byte = Int(prefix[offset + (bigEndian ? index : width - 1 - index)])
                guard value < Int.max >> 9 else { return nil }  // past any real file's size
                value = value << 8 | byte
            }
            return value
        }
        let word = is64 ? 8 : 4
        let type = field(16, 2) ?? 0
        guard type == 3 else {  // ET_DYN
            self = .otherELF(type: type)
            return
        }
        let layout =
            is64
            ? (
                phoff: field(32, 8), shoff: field(40, 8), phentsize: field(54, 2), phnum: field(56, 2),
                shentsize: field(58, 2), shnum: field(60, 2)
            )
            : (
                phoff: field(28, 4), shoff: field(32, 4), phentsize: field(42, 2), phnum: field(44, 2),
                shentsize: field(46, 2), shnum: field(48, 2)
            )
        guard let phoff = layout.phoff, let shoff = layout.shoff, let phentsize = layout.phentsize,
            let phnum = layout.phnum, let shentsize = layout.shentsize, let shnum = layout.shnum
        else {
            self = .incomplete
            return
        }
        var needed = headerSize
        if phnum > 0 { needed = max(needed, phoff + phnum * phentsize) }
        // More than 0xff00 sections: e_shnum is 0 and the count is in section 0, which must be there at least.
        if shoff > 0 { needed = max(needed, shoff + max(shnum, 1) * shentsize) }
        // The segments, when the program header table is in the prefix read (where every linker puts it).
        for index in 0..<phnum {
            let entry = phoff + index * phentsize
            guard let offset = field(entry + (is64 ? 8 : 4), word), let size = field(entry + (is64 ? 32 : 16), word)
            else { break }
            needed = max(needed, offset + size)
        }
        self = fileSize >= needed ? .sharedLibrary : .incomplete
    }

    /// The kind of the file at `path`, from its first ``prefixLength`` bytes and its size; `nil` when it cannot be
    /// read (gone, a folder, no permission).
    package init?(file path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var prefix = [UInt8](repeating: 0, count: min(Int(info.st_size), Self.prefixLength))
        var filled = 0
        while filled < prefix.count {
            let count = prefix.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + filled, $0.count - filled, off_t(filled))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        self.init(prefix: Array(prefix.prefix(filled)), fileSize: Int(info.st_size))
    }
}
