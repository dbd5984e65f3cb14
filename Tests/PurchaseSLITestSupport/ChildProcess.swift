public import Foundation

/// A child process whose output and exit are awaited without blocking a thread of Swift's cooperative
/// pool: a reader thread of its own collects what it prints (standard output and error together), and
/// a waiting thread of its own reaps it and resumes whoever awaits the exit.
public final class ChildProcess: @unchecked Sendable {
    /// How the process ended.
    public enum Termination: Sendable, Hashable, CustomStringConvertible {
        /// It exited with this status.
        case exit(Int32)
        /// A signal ended it.
        case signal(Int32)

        /// `exit 0`, `signal 9`.
        public var description: String {
            switch self {
            case .exit(let status): "exit \(status)"
            case .signal(let signal): "signal \(signal)"
            }
        }
    }

    /// The process ended before printing what was awaited.
    public struct EndedEarly: Error, CustomStringConvertible {
        /// What was awaited, how the process ended and what it printed.
        public let description: String
    }

    /// What the reader thread and the termination handler have seen; `generation` counts the changes.
    private struct State {
        var printed = Data()
        var isOutputClosed = false
        var termination: Termination?
        var generation = 0
    }

    private let pid: pid_t
    private let lock = NSLock()
    private var current = State()
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Starts `executable` with `arguments`, by `posix_spawn` (Foundation's `Process.run()` over-reads memory
    /// now and then on Linux, swift-corelibs-foundation#5472, and crashed the whole test process).
    /// - Parameters:
    ///   - environment: added to this process's environment.
    ///   - currentDirectory: the child's working directory (default: this process's).
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil
    ) throws {
        var ends: [Int32] = [-1, -1]
        guard GNU.pipe2(&ends, O_CLOEXEC) == 0 else { throw SpawnFailed(step: "pipe2", code: errno) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        // Nothing else of this process (a test server's sockets, another child's pipe) reaches the child.
        _ = GNU.addClosefrom(&actions, 3)
        if let currentDirectory { _ = GNU.addChdir(&actions, currentDirectory) }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        var started: pid_t = 0
        let code = withCStrings([executable.path] + arguments) { argv in
            withCStrings(variables) { envp in posix_spawn(&started, executable.path, &actions, nil, argv, envp) }
        }
        close(writeEnd)
        guard code == 0 else {
            close(readEnd)
            throw SpawnFailed(step: "posix_spawn \(executable.path)", code: code)
        }
        let pid = started
        self.pid = pid
        let reader = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                update {
                    if count > 0 { $0.printed.append(contentsOf: buffer[..<count]) } else { $0.isOutputClosed = true }
                }
                if count <= 0 { break }
            }
            close(readEnd)
        }
        reader.name = "purchase-sli test: child output"
        reader.start()
        let waiter = Thread { [self] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            // WIFEXITED and WTERMSIG, which Swift does not import: the low 7 bits are the signal, 0 for an exit.
            let signal = status & 0x7f
            let ended: Termination = signal == 0 ? .exit((status >> 8) & 0xff) : .signal(signal)
            update { $0.termination = ended }
        }
        waiter.name = "purchase-sli test: child exit"
        waiter.start()
    }

    /// `posix_spawn` or a pipe for it failed.
    public struct SpawnFailed: Error, CustomStringConvertible {
        /// The call that failed.
        public let step: String
        /// Its error number.
        public let code: Int32

        /// `posix_spawn /path: No such file or directory`.
        public var description: String { "\(step): \(String(cString: strerror(code)))" }
    }

    /// Runs `executable` to its end; how it ended and what it printed.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil
    ) async throws -> (termination: Termination, output: String) {
        let child = try ChildProcess(executable, arguments, environment: environment, currentDirectory: currentDirectory)
        return (await child.terminated(), child.output)
    }

    /// The child's process ID.
    public var processIdentifier: Int32 { pid }

    /// What the process printed so far, standard output and error interleaved.
    public var output: String { String(decoding: state(\.printed), as: UTF8.self) }

    /// Sends `signal` to the process (nothing happens once it has ended).
    public func send(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if current.termination == nil { kill(pid, signal) }
    }

    /// Waits until the process has ended and its output is read to the end.
    @discardableResult
    public func terminated() async -> Termination {
        while true {
            let seen = state { $0 }
            if seen.isOutputClosed, let termination = seen.termination { return termination }
            await nextChange(after: seen.generation)
        }
    }

    /// Sends `signal` and waits for the process to end.
    @discardableResult
    public func stop(_ signal: Int32) async -> Termination {
        send(signal)
        return await terminated()
    }

    /// Waits until the output matches the regular expression `pattern`; returns the matching text.
    /// - Throws: ``EndedEarly`` when the process ends without printing it.
    public func firstMatch(of pattern: String) async throws -> String {
        while true {
            let seen = state { $0 }
            let text = String(decoding: seen.printed, as: UTF8.self)
            if let range = text.range(of: pattern, options: .regularExpression) { return String(text[range]) }
            if seen.isOutputClosed, let termination = seen.termination {
                throw EndedEarly(description: "awaited /\(pattern)/, but the process ended (\(termination)) after printing: \(text)")
            }
            await nextChange(after: seen.generation)
        }
    }

    private func update(_ change: (inout State) -> Void) {
        lock.lock()
        change(&current)
        current.generation += 1
        let woken = waiters
        waiters = []
        lock.unlock()
        for waiter in woken { waiter.resume() }
    }

    private func state<Value>(_ read: (State) -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return read(current)
    }

    /// Returns once the state has changed since `generation` (at once when it already has).
    private func nextChange(after generation: Int) async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if current.generation != generation {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings, alive for the call.
private func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}

/// The GNU extensions of glibc that Swift's `Glibc` module leaves out (it is built without `_GNU_SOURCE`),
/// looked up by name: glibc has had all three since 2.34.
private enum GNU {
    /// `pipe2(fds, flags)`: a pipe whose ends are close-on-exec from the start, so that no child spawned by
    /// another test meanwhile inherits them (and holds this child's output open).
    static let pipe2: @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32 = symbol("pipe2")
    /// `posix_spawn_file_actions_addclosefrom_np(actions, from)`: the child closes every descriptor from `from` on.
    static let addClosefrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 =
        symbol("posix_spawn_file_actions_addclosefrom_np")
    /// `posix_spawn_file_actions_addchdir_np(actions, path)`: the child's working directory.
    static let addChdir: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32 =
        symbol("posix_spawn_file_actions_addchdir_np")

    private static func symbol<Function>(_ name: String) -> Function {
        guard let address = dlsym(dlopen(nil, RTLD_NOW), name) else { fatalError("glibc has no \(name): 2.34 or later is needed") }
        return unsafeBitCast(address, to: Function.self)
    }
}
