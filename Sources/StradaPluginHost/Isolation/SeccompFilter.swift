import Foundation

/// The seccomp filter a sandboxed worker runs under: a classic BPF program, built here (no libseccomp), that
/// bubblewrap installs (`--seccomp FD`) just before it starts the worker, so the worker and every plugin it loads
/// run under it and cannot lift it.
///
/// The program checks that the call comes from the host's own architecture (another one, such as 32-bit x86 on
/// an x86_64 kernel, numbers its calls differently and would slip past the list: the process is killed), then
/// answers `EPERM` to the calls in ``denied`` and to x86_64's x32 calls, `ENOSYS` to `clone3` (whose flags a
/// filter cannot read: the C library then falls back to `clone`), `EPERM` to a `clone` that asks for a new
/// namespace (what `unshare` would do) and to the terminal `ioctl` requests in ``deniedTerminalRequests``.
/// Everything else is allowed: the sandbox's namespaces, not this list, keep the plugin from the user's files, the
/// network and other processes; the filter narrows the kernel's surface.
package struct SeccompFilter: Sendable, Equatable {
    /// An architecture the filter knows the system-call numbers of.
    package enum Architecture: Sendable, CaseIterable {
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // The kernel's names for them.
        case x86_64, aarch64

        /// The `AUDIT_ARCH_*` value in `seccomp_data.arch` for this architecture's native calls.
        package var auditValue: UInt32 {
            switch self {
            case .x86_64: 0xC000_003E
            case .aarch64: 0xC000_00B7
            }
        }

        /// The architecture this host was built for; `nil` where the filter does not know the numbers.
        package static var host: Architecture? {
            #if arch(x86_64)
            .x86_64
            #elseif arch(arm64)
            .aarch64
            #else
            nil
            #endif
        }
    }

    /// One instruction: `struct sock_filter` (`code`, `jt`, `jf`, `k`), eight bytes in native byte order.
    package struct Instruction: Sendable, Equatable {
        package var code: UInt16
        package var jt: UInt8
        package var jf: UInt8
        package var k: UInt32
    }

    /// What the filter answers a call with (`SECCOMP_RET_*`, with the errno in the low bits).
    package enum Action {
        package static let killProcess: UInt32 = 0x8000_0000
        package static let allow: UInt32 = 0x7FFF_0000
        package static let errno: UInt32 = 0x0005_0000
        package static let deny = errno | UInt32(EPERM)
        package static let notImplemented = errno | UInt32(ENOSYS)
    }

    /// `seccomp_data`'s fields, as byte offsets: the call's number, its architecture, and the low 32 bits of its
    /// first and second arguments (both architectures are little-endian).
    package enum Offset {
        package static let number: UInt32 = 0
        package static let architecture: UInt32 = 4
        package static let firstArgument: UInt32 = 16
        package static let secondArgument: UInt32 = 24
    }

    /// The `CLONE_NEW*` flags `clone` may not carry: mount, cgroup, UTS, IPC, user, PID and network namespaces.
    package static let namespaceFlags: UInt32 =
        0x0002_0000 | 0x0200_0000 | 0x0400_0000 | 0x0800_0000
        | 0x1000_0000 | 0x2000_0000 | 0x4000_0000
    /// x86_64's x32 calls are its own numbers with this bit set.
    package static let x32Bit: UInt32 = 0x4000_0000

    package let architecture: Architecture
    package let instructions: [Instruction]

    /// The filter for `architecture`.
    package init(for architecture: Architecture) {
        self.architecture = architecture
        let denied = Self.denied.compactMap { $0.number(on: architecture) }
        let clone = Self.clone.number(on: architecture)!, clone3 = Self.clone3.number(on: architecture)!
        let ioctl = Self.ioctl.number(on: architecture)!
        // Jumps only go forward, by at most 255: the three answers sit at the end, reached from anywhere above.
        var program = Program()
        program.load(Offset.architecture)
        program.jump(ifEqual: architecture.auditValue, then: .next, else: .kill)
        program.load(Offset.number)
        if architecture == .x86_64 { program.jump(ifAnyBit: Self.x32Bit, then: .deny, else: .next) }
        program.jump(ifEqual: clone3, then: .notImplemented, else: .next)
        for number in denied { program.jump(ifEqual: number, then: .deny, else: .next) }
        // An ioctl's request decides it: the program loads it and answers; any other call skips past (the
        // accumulator still holds its number).
        let requests = Self.deniedTerminalRequests
        program.jump(ifEqual: ioctl, then: .next, else: .skip(requests.count + 1))
        program.load(Offset.secondArgument)
        for (index, request) in requests.enumerated() {
            program.jump(ifEqual: request, then: .deny, else: index == requests.count - 1 ? .allow : .next)
        }
        program.jump(ifEqual: clone, then: .next, else: .allow)
        program.load(Offset.firstArgument)
        program.jump(ifAnyBit: Self.namespaceFlags, then: .deny, else: .allow)
        instructions = program.finished()
    }

    /// The filter for this host's architecture; `nil` where the filter does not know its numbers.
    package static var forHost: SeccompFilter? { Architecture.host.map(SeccompFilter.init(for:)) }

    /// The program as bubblewrap reads it: the instructions' bytes, one after the other.
    package var bytes: [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(instructions.count * 8)
        for instruction in instructions {
            withUnsafeBytes(of: instruction.code) { result += $0 }
            result += [instruction.jt, instruction.jf]
            withUnsafeBytes(of: instruction.k) { result += $0 }
        }
        return result
    }

    /// Whether this kernel runs seccomp filters with the answers the program gives (its
    /// `/proc/sys/kernel/seccomp/actions_avail` lists them): `nil` when it does, otherwise why not.
    package static func kernelRefusal(
        actionsFile: String = "/proc/sys/kernel/seccomp/actions_avail"
    ) -> String? {
        guard let text = try? String(contentsOfFile: actionsFile, encoding: .utf8) else {
            return "this kernel runs no seccomp filters (no \(actionsFile))"
        }
        let available = Set(text.split(whereSeparator: \.isWhitespace).map(String.init))
        let missing = ["allow", "errno", "kill_process"].filter { !available.contains($0) }
        return missing.isEmpty ? nil : "this kernel's seccomp lacks \(missing.joined(separator: ", "))"
    }
}

extension SeccompFilter {
    /// Builds a program whose jumps name where they go; offsets are worked out at the end.
    private struct Program {
        enum Target: Equatable {
            case next, allow, deny, notImplemented, kill
            /// Past the next `count` instructions of the body.
            case skip(Int)
        }

        private var body: [(Instruction, then: Target, else: Target)] = []

        mutating func load(_ offset: UInt32) {
            body.append((Instruction(code: 0x20, jt: 0, jf: 0, k: offset), .next, .next))  // BPF_LD|BPF_W|BPF_ABS
        }

        mutating func jump(ifEqual value: UInt32, then: Target, else otherwise: Target) {
            body.append((Instruction(code: 0x15, jt: 0, jf: 0, k: value), then, otherwise))  // BPF_JMP|BPF_JEQ|BPF_K
        }

        mutating func jump(ifAnyBit mask: UInt32, then: Target, else otherwise: Target) {
            body.append((Instruction(code: 0x45, jt: 0, jf: 0, k: mask), then, otherwise))  // BPF_JMP|BPF_JSET|BPF_K
        }

        /// The body, then the answers in the order of ``Target``'s cases after `next`.
        func finished() -> [Instruction] {
            let answers: [(Target, UInt32)] = [
                (.allow, Action.allow), (.deny, Action.deny), (.notImplemented, Action.notImplemented),
                (.kill, Action.killProcess),
            ]
            func offset(from index: Int, to target: Target) -> UInt8 {
                if case .skip(let count) = target {
                    precondition(index + 1 + count < body.count, "a seccomp skip past the body")
                    return UInt8(count)
                }
                guard let answer = answers.firstIndex(where: { $0.0 == target }) else { return 0 }
                let distance = body.count + answer - index - 1
                precondition(distance <= 255, "a seccomp jump is longer than 255 instructions")
                return UInt8(distance)
            }
            var result = body.enumerated().map { index, entry in
                var instruction = entry.0
                if instruction.code != 0x20 {
                    instruction.jt = offset(from: index, to: entry.then)
                    instruction.jf = offset(from: index, to: entry.else)
                }
                return instruction
            }
            result += answers.map { Instruction(code: 0x06, jt: 0, jf: 0, k: $0.1) }  // BPF_RET|BPF_K
            return result
        }
    }
}
