import Foundation

/// A flat tar archive (POSIX ustar) of regular files — the container of a plugin package, so `tar tf` shows
/// what is inside. Only what a package needs: plain file names (no folders, no links), read back strictly.
struct TarArchive: Equatable {
    /// Files in archive order: name and content.
    var files: [(name: String, data: Data)]

    init(files: [(name: String, data: Data)]) { self.files = files }

    static func == (lhs: TarArchive, rhs: TarArchive) -> Bool {
        lhs.files.map(\.name) == rhs.files.map(\.name) && lhs.files.map(\.data) == rhs.files.map(\.data)
    }

    /// The content of the file named `name`, if the archive has it.
    func file(_ name: String) -> Data? { files.first { $0.name == name }?.data }

    /// The archive's bytes: a 512-byte header and the content (padded to 512) per file, then two zero blocks.
    var data: Data {
        var out = Data()
        for (name, content) in files {
            var header = [UInt8](repeating: 0, count: 512)
            func put(_ text: String, at offset: Int, width: Int) {
                for (index, byte) in text.utf8.prefix(width).enumerated() { header[offset + index] = byte }
            }
            func octal(_ value: Int, width: Int) -> String {
                let digits = String(value, radix: 8)
                return String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits
            }
            put(name, at: 0, width: 100)
            put(octal(0o644, width: 8), at: 100, width: 8)
            put(octal(0, width: 8), at: 108, width: 8)
            put(octal(0, width: 8), at: 116, width: 8)
            put(octal(content.count, width: 12), at: 124, width: 12)
            put(octal(0, width: 12), at: 136, width: 12)
            put("        ", at: 148, width: 8)  // the checksum counts its own field as spaces
            header[156] = UInt8(ascii: "0")
            put("ustar", at: 257, width: 6)
            put("00", at: 263, width: 2)
            let sum = header.reduce(0) { $0 + Int($1) }
            put(octal(sum, width: 7), at: 148, width: 7)
            out.append(contentsOf: header)
            out.append(content)
            out.append(Data(count: (512 - content.count % 512) % 512))
        }
        out.append(Data(count: 1024))
        return out
    }

    /// Reads an archive written by ``data`` (or by `tar --format=ustar` from plain files). The error says what
    /// is wrong: a package is never half-read.
    init(reading data: Data) throws(TarArchiveError) {
        let bytes = [UInt8](data)
        var files: [(name: String, data: Data)] = []
        var offset = 0
        while offset + 512 <= bytes.count {
            let header = bytes[offset..<offset + 512]
            if header.allSatisfy({ $0 == 0 }) { break }
            func field(_ start: Int, _ width: Int) -> String {
                let slice = header[(offset + start)..<(offset + start + width)].prefix { $0 != 0 }
                return String(decoding: slice, as: UTF8.self)
            }
            let stored = Int(field(148, 8).trimmingCharacters(in: .whitespaces), radix: 8)
            var sum = 0
            for (index, byte) in header.enumerated() { sum += (148..<156).contains(index) ? 32 : Int(byte) }
            guard stored == sum else { throw TarArchiveError("a header's checksum does not match (damaged)") }
            guard field(257, 5) == "ustar" else { throw TarArchiveError("not a ustar tar archive") }
            let name = field(0, 100)
            let type = header[offset + 156]
            guard type == UInt8(ascii: "0") || type == 0 else {
                throw TarArchiveError("\(name) is not a regular file (a package holds only plain files)")
            }
            guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
                throw TarArchiveError("\"\(name)\" is not a plain file name (a package holds no folders)")
            }
            guard let size = Int(field(124, 12).trimmingCharacters(in: .whitespaces), radix: 8),
                offset + 512 + size <= bytes.count
            else { throw TarArchiveError("\(name) is cut short (the archive is truncated)") }
            guard !files.contains(where: { $0.name == name }) else {
                throw TarArchiveError("\(name) is in the archive twice")
            }
            files.append((name, Data(bytes[(offset + 512)..<(offset + 512 + size)])))
            offset += 512 + (size + 511) / 512 * 512
        }
        guard offset + 512 <= bytes.count else { throw TarArchiveError("it ends without the end-of-archive blocks") }
        self.files = files
    }
}

/// Why bytes are not a package's archive.
struct TarArchiveError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
