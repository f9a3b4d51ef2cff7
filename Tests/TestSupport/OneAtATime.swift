public import Testing

/// Runs every test case that carries it one at a time across the whole test process — also under a plain
/// `swift test`, which runs suites in parallel. End-to-end tests each start a real host with WebKit's web and
/// network processes; several at once starve a 2-core machine into timeouts. Use it as
/// ``Testing/Trait/oneAtATime`` on every end-to-end suite.
public struct OneAtATimeTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }  // a suite: its test cases take the turn
        await ProcessWideTurn.shared.acquire()
        do {
            try await function()
        } catch {
            await ProcessWideTurn.shared.release()
            throw error
        }
        await ProcessWideTurn.shared.release()
    }
}

extension Trait where Self == OneAtATimeTrait {
    /// This suite's (or test's) cases never run at the same time as another case that carries it.
    public static var oneAtATime: Self { Self() }
}

/// A first-come, first-served turn shared by the whole process.
actor ProcessWideTurn {
    static let shared = ProcessWideTurn()
    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard taken else {
            taken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            taken = false
        } else {
            waiting.removeFirst().resume()  // the turn passes on: `taken` stays true
        }
    }
}
