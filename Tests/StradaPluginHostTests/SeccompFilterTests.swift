import Foundation
import Testing

@testable import StradaPluginHost

/// The sandbox's seccomp program, run by a test-side interpreter (`ClassicBPF`): the host's own architecture only,
/// the denied calls `EPERM`, the calls every program makes allowed, a namespace by `clone` denied too.
struct SeccompFilterTests {
    typealias Architecture = SeccompFilter.Architecture

    /// Calls every worker makes (read, write, openat, mmap, futex, exit_group), on each architecture.
    static let everyday: [Architecture: [UInt32]] = [
        .x86_64: [0, 1, 257, 9, 202, 231], .aarch64: [63, 64, 56, 222, 98, 94],
    ]

    func answer(
        _ filter: SeccompFilter, _ number: UInt32, architecture: UInt32? = nil, arguments: [UInt64] = []
    ) throws -> UInt32 {
        let data = ClassicBPF.data(
            number: number, architecture: architecture ?? filter.architecture.auditValue, arguments: arguments)
        return try ClassicBPF.run(filter.instructions, on: data)
    }

    @Test(arguments: Architecture.allCases)
    func everyDeniedCallGetsEPERMAndEverydayCallsAreAllowed(_ architecture: Architecture) throws {
        let filter = SeccompFilter(for: architecture)
        let denied = SeccompFilter.denied.compactMap { $0.number(on: architecture) }
        #expect(denied.count >= 30)
        for number in denied {
            #expect(try answer(filter, number) == SeccompFilter.Action.errno | UInt32(EPERM), "call \(number)")
        }
        for number in Self.everyday[architecture]! {
            #expect(try answer(filter, number) == SeccompFilter.Action.allow, "call \(number)")
        }
    }

    @Test(arguments: Architecture.allCases)
    func aCallFromAnotherArchitectureKillsTheProcess(_ architecture: Architecture) throws {
        let filter = SeccompFilter(for: architecture)
        // The other 64-bit architecture, and 32-bit x86 (AUDIT_ARCH_I386) and ARM (AUDIT_ARCH_ARM).
        let others = Architecture.allCases.filter { $0 != architecture }.map(\.auditValue) + [0x4000_0003, 0x4000_0028]
        for other in others {
            // `write`, which the host's own architecture may make.
            #expect(try answer(filter, 1, architecture: other) == SeccompFilter.Action.killProcess)
            #expect(try answer(filter, 64, architecture: other) == SeccompFilter.Action.killProcess)
        }
    }

    @Test func x32CallsAreDeniedOnX86_64() throws {
        let filter = SeccompFilter(for: .x86_64)
        #expect(try answer(filter, 0x4000_0000 | 1) == SeccompFilter.Action.deny, "x32 write")
        #expect(try answer(filter, 0x4000_0000 | 101) == SeccompFilter.Action.deny, "x32 ptrace")
    }

    @Test(arguments: Architecture.allCases)
    func cloneMayMakeThreadsAndProcessesButNoNamespace(_ architecture: Architecture) throws {
        let filter = SeccompFilter(for: architecture)
        let clone = SeccompFilter.clone.number(on: architecture)!
        // glibc's pthread_create: CLONE_VM|FS|FILES|SIGHAND|THREAD|SYSVSEM|SETTLS|PARENT_SETTID|CHILD_CLEARTID.
        #expect(try answer(filter, clone, arguments: [0x3D_0F00]) == SeccompFilter.Action.allow)
        #expect(try answer(filter, clone, arguments: [UInt64(SIGCHLD)]) == SeccompFilter.Action.allow, "fork")
        for flag: UInt64 in [0x1000_0000, 0x2000_0000, 0x4000_0000, 0x0002_0000] {  // user, PID, network, mount
            #expect(try answer(filter, clone, arguments: [flag | UInt64(SIGCHLD)]) == SeccompFilter.Action.deny)
        }
        #expect(
            try answer(filter, SeccompFilter.clone3.number(on: architecture)!)
                == SeccompFilter.Action.errno | UInt32(ENOSYS), "clone3: the C library falls back to clone")
    }

    @Test(arguments: Architecture.allCases)
    func anIoctlPushingInputIntoATerminalIsDeniedAndOrdinaryRequestsAreAllowed(_ architecture: Architecture) throws {
        let filter = SeccompFilter(for: architecture)
        let ioctl = SeccompFilter.ioctl.number(on: architecture)!
        // TIOCSTI, TIOCLINUX, and TIOCSTI with high bits the terminal driver ignores (it reads 32 bits).
        for request: UInt64 in [0x5412, 0x541C, 0x1_0000_5412] {
            #expect(try answer(filter, ioctl, arguments: [1, request]) == SeccompFilter.Action.deny, "\(request)")
        }
        // TCGETS, FIONREAD, FIONBIO, FIOCLEX.
        for request: UInt64 in [0x5401, 0x541B, 0x5421, 0x5451] {
            #expect(try answer(filter, ioctl, arguments: [1, request]) == SeccompFilter.Action.allow, "\(request)")
        }
        // Another call with TIOCSTI's number as its second argument is not an ioctl.
        #expect(
            try answer(filter, Self.everyday[architecture]![1], arguments: [1, 0x5412]) == SeccompFilter.Action.allow)
    }

    @Test(arguments: Architecture.allCases)
    func theTablesNameEachCallOnceAndTheIssuesList(_ architecture: Architecture) {
        let numbers = SeccompFilter.denied.compactMap { $0.number(on: architecture) }
        #expect(Set(numbers).count == numbers.count)
        let names = Set(SeccompFilter.denied.map(\.name))
        for name in [
            "ptrace", "process_vm_readv", "process_vm_writev", "mount", "umount2", "pivot_root", "chroot",
            "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "bpf", "perf_event_open",
            "keyctl", "add_key", "request_key", "userfaultfd", "unshare", "setns", "acct", "swapon", "swapoff",
            "reboot", "syslog", "open_by_handle_at", "personality",
        ] {
            #expect(names.contains(name), "\(name)")
        }
    }

    @Test func theProgramIsEightBytesAnInstructionInNativeOrder() {
        let filter = SeccompFilter(for: .x86_64)
        let bytes = filter.bytes
        #expect(bytes.count == filter.instructions.count * 8)
        #expect(MemoryLayout<UInt16>.size + 2 + MemoryLayout<UInt32>.size == 8)
        // ld [4]: code 0x20, jt 0, jf 0, k 4 — little-endian on both architectures.
        #expect(Array(bytes.prefix(8)) == [0x20, 0, 0, 0, 4, 0, 0, 0])
        #expect(filter.instructions.count < 4096, "the kernel's limit (BPF_MAXINSNS)")
    }

    @Test func theHostsArchitectureHasAFilter() {
        #if arch(x86_64) || arch(arm64)
        #expect(SeccompFilter.forHost != nil)
        #endif
    }

    @Test func theKernelMustOfferEveryAnswerTheProgramGives() throws {
        let file = NSTemporaryDirectory() + "seccomp-actions-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "kill_process kill_thread trap errno user_notif trace log allow\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        #expect(SeccompFilter.kernelRefusal(actionsFile: file) == nil)
        try "kill_thread trap trace allow\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(SeccompFilter.kernelRefusal(actionsFile: file) == "this kernel's seccomp lacks errno, kill_process")
        #expect(
            SeccompFilter.kernelRefusal(actionsFile: file + ".missing")
                == "this kernel runs no seccomp filters (no \(file).missing)")
    }
}
