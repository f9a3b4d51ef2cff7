import Foundation

enum TemporaryDirectory {
    static func make() throws -> String {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("strada-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

enum Shell {
    static func run(_ command: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Small C shared libraries compiled by the tests with `cc`, against the ABI header only.
enum CLibrary {
    static var headerDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SDK/CStradaPlugin/include").path
    }

    @discardableResult
    static func build(_ name: String, in directory: String, source: String) throws -> String {
        let sourcePath = (directory as NSString).appendingPathComponent(name + ".c.src")
        let output = (directory as NSString).appendingPathComponent(name)
        try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        let status = try Shell.run("cc", ["-std=c11", "-shared", "-fPIC", "-I", headerDirectory, "-x", "c", sourcePath, "-o", output])
        guard status == 0 else { throw CocoaError(.fileWriteUnknown) }
        try FileManager.default.removeItem(atPath: sourcePath)
        return output
    }
}
