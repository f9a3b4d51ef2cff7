import Testing

@testable import StradaEngineGTK

/// Which runtime folder WebKit's sandbox will put its proxy sockets in, and when it is too long for them.
struct RuntimeFolderTests {
    @Test func theFolderIsGLibsRuntimeFolderElseItsCacheFolder() {
        #expect(RuntimeFolder.effective(["XDG_RUNTIME_DIR": "/run/user/1000", "HOME": "/home/a"]) == "/run/user/1000")
        #expect(RuntimeFolder.effective(["XDG_RUNTIME_DIR": "", "XDG_CACHE_HOME": "/c", "HOME": "/home/a"]) == "/c")
        #expect(RuntimeFolder.effective(["HOME": "/home/a"]) == "/home/a/.cache")
        #expect(RuntimeFolder.effective([:]) == nil)
    }

    @Test func aFolderLongerThanTheSocketPathsAllowIsTooLong() {
        // WebKit's longest proxy socket is <folder>/webkitgtk/a11y-proxy-XXXXXX (28 bytes more), and a socket path
        // holds at most 107: 79 bytes of folder is WebKit's own limit, 72 ours.
        #expect(!RuntimeFolder.tooLong("/run/user/1000"))
        #expect(!RuntimeFolder.tooLong("/" + String(repeating: "a", count: 71)))
        #expect(RuntimeFolder.tooLong("/" + String(repeating: "a", count: 72)))
        #expect(RuntimeFolder.tooLong("/" + String(repeating: "é", count: 40)))  // 81 bytes in 41 characters
    }
}
