extension SeccompFilter {
    /// A system call the filter names, with its number on each architecture (the kernel's numbering:
    /// `arch/x86/entry/syscalls/syscall_64.tbl`, and `include/uapi/asm-generic/unistd.h` for aarch64); `nil`
    /// where the architecture has no such call.
    package struct Syscall: Sendable, Equatable {
        package let name: String
        // swift-format-ignore: AlwaysUseLowerCamelCase
        package let x86_64: UInt32?
        package let aarch64: UInt32?

        init(_ name: String, x86_64: UInt32?, aarch64: UInt32?) {
            self.name = name
            self.x86_64 = x86_64
            self.aarch64 = aarch64
        }

        /// Its number on `architecture`.
        package func number(on architecture: Architecture) -> UInt32? {
            switch architecture {
            case .x86_64: x86_64
            case .aarch64: aarch64
            }
        }
    }

    /// `clone`: allowed, unless its flags ask for a new namespace.
    static let clone = Syscall("clone", x86_64: 56, aarch64: 220)
    /// `clone3`: answered `ENOSYS` (its flags are behind a pointer the filter cannot read).
    static let clone3 = Syscall("clone3", x86_64: 435, aarch64: 435)

    /// `ioctl`: allowed, unless its request is one of ``deniedTerminalRequests``.
    static let ioctl = Syscall("ioctl", x86_64: 16, aarch64: 29)
    /// The `ioctl` requests answered `EPERM` (the same numbers on both architectures), compared on their low 32
    /// bits as the terminal driver reads them: `TIOCSTI` pushes characters into a terminal's input, to be read as
    /// if typed by its user (a way out of any sandbox sharing that terminal; bubblewrap's `--new-session` also
    /// takes the worker off it), and `TIOCLINUX` reaches the Linux console's own functions, selection and
    /// pasting included. Other requests stay open: a plugin's libraries ask terminals and descriptors for
    /// ordinary things (`TCGETS`, `FIONREAD`, `FIONBIO`) and the sandbox leaves it no device to misuse.
    /// `prctl` is not narrowed: what it could change to escape (capabilities, no-new-privileges, the filter
    /// itself) the kernel already refuses inside bubblewrap.
    package static let deniedTerminalRequests: [UInt32] = [0x5412, 0x541C]  // TIOCSTI, TIOCLINUX

    /// The calls answered `EPERM`. A plugin draws a component and answers a page: it has no business with any of
    /// these, and each is a way out of the sandbox or into the kernel's less-trodden code.
    package static let denied: [Syscall] = [
        // Other processes' memory and registers: reading or steering another process (the sandbox hides the
        // others, but a plugin's own helpers or a process it was handed would still be open to it).
        Syscall("ptrace", x86_64: 101, aarch64: 117),
        Syscall("process_vm_readv", x86_64: 310, aarch64: 270),
        Syscall("process_vm_writev", x86_64: 311, aarch64: 271),
        // Changing what the file system looks like: bubblewrap laid it out, the plugin keeps it. The new mount
        // API (open_tree … mount_setattr) is the same power by other names.
        Syscall("mount", x86_64: 165, aarch64: 40),
        Syscall("umount2", x86_64: 166, aarch64: 39),
        Syscall("pivot_root", x86_64: 155, aarch64: 41),
        Syscall("chroot", x86_64: 161, aarch64: 51),
        Syscall("open_tree", x86_64: 428, aarch64: 428),
        Syscall("move_mount", x86_64: 429, aarch64: 429),
        Syscall("fsopen", x86_64: 430, aarch64: 430),
        Syscall("fsconfig", x86_64: 431, aarch64: 431),
        Syscall("fsmount", x86_64: 432, aarch64: 432),
        Syscall("fspick", x86_64: 433, aarch64: 433),
        Syscall("mount_setattr", x86_64: 442, aarch64: 442),
        // New namespaces, or joining another's: the way to regain the capabilities bubblewrap dropped (a new
        // user namespace grants them all inside it) and to reach kernel code only those capabilities open.
        Syscall("unshare", x86_64: 272, aarch64: 97),
        Syscall("setns", x86_64: 308, aarch64: 268),
        // Loading code into the kernel, or a new kernel.
        Syscall("kexec_load", x86_64: 246, aarch64: 104),
        Syscall("kexec_file_load", x86_64: 320, aarch64: 294),
        Syscall("init_module", x86_64: 175, aarch64: 105),
        Syscall("finit_module", x86_64: 313, aarch64: 273),
        Syscall("delete_module", x86_64: 176, aarch64: 106),
        // Programs run in the kernel (eBPF) and performance counters: large attack surfaces, and a window on
        // other processes' timing.
        Syscall("bpf", x86_64: 321, aarch64: 280),
        Syscall("perf_event_open", x86_64: 298, aarch64: 241),
        // The kernel's key store: the user's session keyring, which every process of the session inherits, is
        // within reach of the sandbox through it.
        Syscall("keyctl", x86_64: 250, aarch64: 219),
        Syscall("add_key", x86_64: 248, aarch64: 217),
        Syscall("request_key", x86_64: 249, aarch64: 218),
        // Stalling the kernel on a page fault at a moment of the caller's choosing: the classic tool for
        // winning a kernel race.
        Syscall("userfaultfd", x86_64: 323, aarch64: 282),
        // The machine's administration: process accounting, swap, quotas, rebooting, the kernel's log.
        Syscall("acct", x86_64: 163, aarch64: 89),
        Syscall("swapon", x86_64: 167, aarch64: 224),
        Syscall("swapoff", x86_64: 168, aarch64: 225),
        Syscall("quotactl", x86_64: 179, aarch64: 60),
        Syscall("reboot", x86_64: 169, aarch64: 142),
        Syscall("syslog", x86_64: 103, aarch64: 116),
        // Opening a file by its handle skips the path, so it skips the sandbox's bind mounts.
        Syscall("open_by_handle_at", x86_64: 304, aarch64: 265),
        // Personality flags change how later programs are laid out (READ_IMPLIES_EXEC, ADDR_NO_RANDOMIZE): the
        // worker never sets them, and nothing a plugin runs should turn address randomisation off.
        Syscall("personality", x86_64: 135, aarch64: 92),
        // x86 I/O ports (x86_64 only).
        Syscall("iopl", x86_64: 172, aarch64: nil),
        Syscall("ioperm", x86_64: 173, aarch64: nil),
    ]
}
