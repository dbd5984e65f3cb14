public import Foundation

/// A child process whose output and exit are awaited without blocking a thread of Swift's cooperative
/// pool: a reader thread of its own collects what it prints (standard output and error together), and
/// its termination handler resumes whoever awaits the exit.
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

    private let process = Process()
    private let lock = NSLock()
    private var current = State()
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Starts `executable` with `arguments`.
    /// - Parameters:
    ///   - environment: added to this process's environment.
    ///   - currentDirectory: the child's working directory (default: this process's).
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil
    ) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [self] process in
            let ended: Termination =
                process.terminationReason == .exit
                ? .exit(process.terminationStatus) : .signal(process.terminationStatus)
            update { $0.termination = ended }
        }
        try process.run()
        let reader = Thread { [self] in
            let handle = pipe.fileHandleForReading
            while true {
                let chunk = handle.availableData
                update {
                    if chunk.isEmpty { $0.isOutputClosed = true } else { $0.printed.append(chunk) }
                }
                if chunk.isEmpty { return }
            }
        }
        reader.name = "purchase-sli test: child output"
        reader.start()
    }

    /// Runs `executable` to its end; how it ended and what it printed.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil
    ) async throws -> (termination: Termination, output: String) {
        let child = try ChildProcess(executable, arguments, environment: environment, currentDirectory: currentDirectory)
        return (await child.terminated(), child.output)
    }

    /// The child's process ID.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// What the process printed so far, standard output and error interleaved.
    public var output: String { String(decoding: state(\.printed), as: UTF8.self) }

    /// Sends `signal` to the process (nothing happens once it has ended).
    public func send(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if current.termination == nil { kill(process.processIdentifier, signal) }
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
