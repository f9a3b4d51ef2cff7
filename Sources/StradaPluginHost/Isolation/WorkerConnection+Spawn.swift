import Foundation

/// Starting a worker: its pipes and its process.
extension WorkerConnection {
    /// Could not start the worker: `errno` of the failing call.
    struct SpawnError: Error, CustomStringConvertible {
        let code: Int32
        var description: String { String(cString: strerror(code)) }
    }

    /// pipe2(2): both ends close-on-exec from the start, so no process another thread starts meanwhile inherits
    /// them (a worker holding another's input open kept it from ever seeing its end). Glibc declares it only
    /// with `_GNU_SOURCE`, which Swift's module does not set: it is looked up.
    static func pipe2(_ fds: inout [Int32], _ flags: Int32) -> Int32 {
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
        guard let symbol = dlsym(nil, "pipe2") else { return -1 }
        return fds.withUnsafeMutableBufferPointer { unsafeBitCast(symbol, to: Pipe2.self)($0.baseAddress!, flags) }
    }

    static func spawn(
        _ executable: String, _ arguments: [String], _ environment: [String: String], stdin: Int32, stdout: Int32,
        inherited: [Int32]
    ) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies: the worker gets these two, and no other pipe of ours.
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        // A descriptor dup2'd onto itself only loses close-on-exec, in the child (glibc 2.29 on, as POSIX asks).
        for fd in inherited { posix_spawn_file_actions_adddup2(&actions, fd, fd) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        return code == 0 ? .success(pid) : .failure(SpawnError(code: code))
    }
}
