import Foundation
public import Testing

/// Folders a test writes to, removed when the test ends.
///
/// Give the suite (or the test) the ``Testing/Trait/temporaryDirectories`` trait; inside it each test case
/// gets its own root folder, every ``make(_:)`` returns a fresh folder under that root, and the root is
/// removed when the test case ends — passed, failed or thrown out of.
///
/// ```swift
/// @Suite(.temporaryDirectories)
/// struct PluginTests {
///     @Test func loads() throws {
///         let folder = try TemporaryDirectory.make("plugins")
///         …
///     }
/// }
/// ```
public enum TemporaryDirectory {
    /// The running test case's root folder, set by the trait.
    @TaskLocal static var root: String?

    /// ``make(_:)`` was called outside a test that has the trait, where nothing would remove the folder.
    public struct NoScope: Error, CustomStringConvertible {
        public var description: String {
            "TemporaryDirectory.make() needs the .temporaryDirectories trait on the suite or the test, "
                + "so that the folder is removed when the test ends"
        }
    }

    /// Creates a new empty folder named after `label` inside the running test case's root.
    public static func make(_ label: String = "tmp") throws -> String {
        guard let root else { throw NoScope() }
        let path = (root as NSString).appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `contents` to a new file called `name` in a new folder, and returns the file's path.
    public static func file(named name: String, contents: String) throws -> String {
        let path = (try make("file") as NSString).appendingPathComponent(name)
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// Gives each test case its own temporary root folder and removes it when the test case ends.
/// Use it as ``Testing/Trait/temporaryDirectories``.
public struct TemporaryDirectoryTrait: TestTrait, SuiteTrait, TestScoping {
    /// A suite's trait applies to every test in it.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let root = (NSTemporaryDirectory() as NSString).appendingPathComponent("strada-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await TemporaryDirectory.$root.withValue(root) { try await function() }
    }
}

extension Trait where Self == TemporaryDirectoryTrait {
    /// Folders from ``TemporaryDirectory/make(_:)`` in this suite or test are removed when each test case ends.
    public static var temporaryDirectories: Self { Self() }
}

/// A `swift build` or `swift test` a test runs (a package of its own).
public enum SwiftBuild {
    /// Its `TMPDIR`: a folder of the running test's (see ``TemporaryDirectory``). SwiftPM leaves lock files and
    /// `TemporaryDirectory.*` folders in its temporary folder, ten or more a build, never removed.
    public static func environment() throws -> [String: String] {
        ["TMPDIR": try TemporaryDirectory.make("swiftpm-tmp")]
    }
}
