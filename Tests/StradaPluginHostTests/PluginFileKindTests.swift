import Foundation
import StradaPluginHost
import TestSupport
import Testing

/// `--watch` takes a file as a build only when its content is a complete ELF shared object: what else a build
/// leaves in the folder (object files, temporary files) and a library still being written are told apart here.
@Suite(.temporaryDirectories)
struct PluginFileKindTests {
    /// A real shared library and a real object file, compiled from the same source with the system's `cc`.
    static func built() throws -> (library: String, object: String) {
        let folder = try TemporaryDirectory.make("kinds")
        let source = "int answer(void) { return 42; }\nint table[4096] = {1};\n"
        let library = (folder as NSString).appendingPathComponent("libanswer.so")
        let object = (folder as NSString).appendingPathComponent("answer.o")
        try CCompiler.sharedLibrary(source, at: library)
        try CCompiler.object(source, at: object)
        return (library, object)
    }

    @Test func aCompleteSharedLibraryIsOne() throws {
        let (library, _) = try Self.built()
        #expect(PluginFileKind(file: library) == .sharedLibrary)
    }

    @Test func anObjectFileIsNot() throws {
        let (_, object) = try Self.built()
        #expect(PluginFileKind(file: object) == .otherELF(type: 1))  // ET_REL
    }

    /// A library cut anywhere — just past its ELF header, in the middle, one byte short — is still being written.
    @Test(arguments: [64, 2, 1])
    func aLibraryCutShortIsIncomplete(_ cut: Int) throws {
        let (library, _) = try Self.built()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: library)))
        let length = cut == 64 ? 64 : cut == 2 ? bytes.count / 2 : bytes.count - 1
        #expect(PluginFileKind(prefix: Array(bytes.prefix(length)), fileSize: length) == .incomplete)
        let partial = library + ".part"
        try Data(bytes.prefix(length)).write(to: URL(fileURLWithPath: partial))
        #expect(PluginFileKind(file: partial) == .incomplete)
    }

    @Test func theFirstBytesOfAnELFHeaderAreIncompleteAndOtherBytesAreNotELF() {
        #expect(PluginFileKind(prefix: [0x7F, 0x45], fileSize: 2) == .incomplete)
        #expect(PluginFileKind(prefix: Array("\u{7F}ELF truncated".utf8), fileSize: 14) == .incomplete)
        #expect(PluginFileKind(prefix: [], fileSize: 0) == .notELF)
        #expect(PluginFileKind(prefix: Array("{\"id\": \"dev.example\"}".utf8), fileSize: 22) == .notELF)
        #expect(PluginFileKind(prefix: [0x7F, 0x45, 0x4C, 0x47, 0, 0], fileSize: 6) == .notELF)
    }

    /// A 32-bit big-endian shared object's header is read with its own layout: complete when the file reaches
    /// the end of its section headers (offset 0x200, 3 entries of 40 bytes), incomplete one byte short.
    @Test func a32BitBigEndianHeaderIsReadWithItsLayout() {
        var header = [UInt8](repeating: 0, count: 52)
        header[0..<6] = [0x7F, 0x45, 0x4C, 0x46, 1, 2]
        header[17] = 3  // e_type ET_DYN, big-endian
        header[34] = 0x02  // e_shoff 0x200
        header[47] = 40  // e_shentsize
        header[49] = 3  // e_shnum
        #expect(PluginFileKind(prefix: header, fileSize: 0x200 + 120) == .sharedLibrary)
        #expect(PluginFileKind(prefix: header, fileSize: 0x200 + 119) == .incomplete)
    }

    @Test func aFileThatIsGoneOrAFolderHasNoKind() throws {
        let folder = try TemporaryDirectory.make("kinds")
        #expect(PluginFileKind(file: folder) == nil)
        #expect(PluginFileKind(file: folder + "/missing.so") == nil)
    }
}
