import Foundation

/// The durable queue: events appended to segment files in a directory and synced before their writers
/// are told, each closed segment one batch to send, the oldest dropped first when the queue would take
/// more than its byte limit.
///
/// Writes from any thread are gathered on one serial queue and written and synced together (a group
/// commit), so a burst of events costs one `fsync`, and no caller's thread waits for the disk. A process
/// killed at any moment loses at most the events of the write in progress: a torn last line is skipped
/// when its segment is read, and a restarted queue never appends to a segment it did not open.
final class EventQueue: @unchecked Sendable {
    /// A closed segment: a batch waiting to be sent.
    struct Segment: Sendable, Hashable {
        let url: URL
        let sequence: Int
    }

    private let directory: URL
    private let maximumBytes: Int
    private let maximumSegmentEvents: Int
    private let maximumSegmentBytes: Int
    private let log: (@Sendable (String) -> Void)?
    private let io = DispatchQueue(label: "purchase-sli.queue")
    private let lock = NSLock()
    // Guarded by `lock`:
    private var pending: [(lines: [String], done: @Sendable () -> Void)] = []
    private var dropped: Int
    // Touched on `io` only:
    private var open: (handle: FileHandle, segment: Segment, events: Int, bytes: Int)?
    private var nextSequence: Int
    private var closed: [Segment]
    private var sizes: [Int: (bytes: Int, events: Int)] = [:]

    /// Opens (or makes) the queue in `directory`; what an earlier process queued is kept, to be sent.
    init(
        directory: URL, maximumBytes: Int, maximumSegmentEvents: Int, maximumSegmentBytes: Int, log: (@Sendable (String) -> Void)? = nil
    ) throws {
        self.directory = directory
        self.log = log
        self.maximumBytes = maximumBytes
        self.maximumSegmentEvents = maximumSegmentEvents
        // A segment is at most a quarter of the queue, so that dropping the oldest frees room without
        // emptying it.
        self.maximumSegmentBytes = max(1024, min(maximumSegmentBytes, maximumBytes / 4))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        closed = names.compactMap { name -> Segment? in
            guard name.hasPrefix("segment-"), name.hasSuffix(".ndjson"), let sequence = Int(name.dropFirst(8).dropLast(7)) else { return nil }
            return Segment(url: directory.appendingPathComponent(name), sequence: sequence)
        }.sorted { $0.sequence < $1.sequence }
        nextSequence = (closed.last?.sequence ?? 0) + 1
        dropped =
            (try? String(contentsOf: directory.appendingPathComponent("dropped"), encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        for segment in closed {
            let data = (try? Data(contentsOf: segment.url)) ?? Data()
            sizes[segment.sequence] = (data.count, data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })
        }
    }

    /// Events dropped because the queue was full, not yet reported to the server.
    var droppedCount: Int { lock.withLock { dropped } }

    /// Appends `lines` (one event each); `done` is called once they are on disk and synced.
    func append(_ lines: [String], done: @escaping @Sendable () -> Void) {
        lock.withLock { pending.append((lines, done)) }
        io.async { self.writePending() }
    }

    /// Appends `lines` and returns once they are on disk and synced.
    func append(_ lines: [String]) async {
        await withCheckedContinuation { continuation in append(lines) { continuation.resume() } }
    }

    /// Closes the segment being written (if it holds any event), so that its events can be sent.
    func rotate() async {
        await withCheckedContinuation { continuation in
            io.async {
                self.closeOpenSegment()
                continuation.resume()
            }
        }
    }

    /// The closed segments, oldest first.
    func segments() async -> [Segment] {
        await withCheckedContinuation { continuation in io.async { continuation.resume(returning: self.closed) } }
    }

    /// The events of a segment, each a complete line (a torn last line is skipped).
    func lines(of segment: Segment) async -> [String] {
        await withCheckedContinuation { continuation in
            io.async {
                let data = (try? Data(contentsOf: segment.url)) ?? Data()
                var lines = data.split(separator: 0x0A, omittingEmptySubsequences: true)
                if let last = data.last, last != 0x0A, !lines.isEmpty { lines.removeLast() }
                continuation.resume(returning: lines.map { String(decoding: $0, as: UTF8.self) })
            }
        }
    }

    /// Removes a segment whose events were delivered (or given up).
    func remove(_ segment: Segment) async {
        await withCheckedContinuation { continuation in
            io.async {
                try? FileManager.default.removeItem(at: segment.url)
                self.closed.removeAll { $0 == segment }
                self.sizes[segment.sequence] = nil
                continuation.resume()
            }
        }
    }

    /// Events waiting: those of closed segments and of the one being written.
    func waitingCount() async -> Int {
        await withCheckedContinuation { continuation in
            io.async { continuation.resume(returning: self.sizes.values.reduce(0) { $0 + $1.events } + (self.open?.events ?? 0)) }
        }
    }

    /// Forgets `count` dropped events once the server has been told of them (at once, so that the next
    /// request does not report them again; the file is written in the background).
    func acknowledgeDropped(_ count: Int) {
        let remaining = lock.withLock { () -> Int in
            dropped = max(0, dropped - count)
            return dropped
        }
        io.async { self.saveDropped(remaining) }
    }

    // MARK: On `io`

    private func writePending() {
        let batch = lock.withLock { () -> [(lines: [String], done: @Sendable () -> Void)] in
            defer { pending = [] }
            return pending
        }
        guard !batch.isEmpty else { return }
        let lost = batch.flatMap(\.lines).filter { !write($0 + "\n") }.count
        do {
            try open?.handle.synchronize()
        } catch {
            log?("purchase-sli: the queue could not sync \(directory.path) (\(error)); a crash now may lose its last events")
        }
        if lost > 0 {
            // A full or failing disk: the events are gone, and the service is told how many, as for a full queue.
            log?("purchase-sli: \(lost) events could not be written to \(directory.path); they are counted as dropped")
            saveDropped(
                lock.withLock { () -> Int in
                    dropped += lost
                    return dropped
                })
        }
        enforceLimit()
        for item in batch { item.done() }
    }

    /// Appends one line to the open segment (opening one when needed); false when the disk refused it.
    private func write(_ line: String) -> Bool {
        let bytes = Data(line.utf8)
        if let current = open, current.events >= maximumSegmentEvents || current.bytes + bytes.count > maximumSegmentBytes {
            closeOpenSegment()
        }
        if open == nil {
            let number = String(nextSequence)
            let name = "segment-" + String(repeating: "0", count: max(0, 12 - number.count)) + number + ".ndjson"
            let segment = Segment(url: directory.appendingPathComponent(name), sequence: nextSequence)
            nextSequence += 1
            guard FileManager.default.createFile(atPath: segment.url.path, contents: nil),
                let handle = try? FileHandle(forWritingTo: segment.url)
            else { return false }
            open = (handle, segment, 0, 0)
        }
        do {
            try open?.handle.write(contentsOf: bytes)
        } catch {
            // What was written of the line is a torn end, which the reader skips; the next line goes to a new segment.
            closeOpenSegment()
            return false
        }
        open?.events += 1
        open?.bytes += bytes.count
        return true
    }

    private func closeOpenSegment() {
        guard let current = open else { return }
        try? current.handle.synchronize()
        try? current.handle.close()
        open = nil
        if current.events == 0 {
            try? FileManager.default.removeItem(at: current.segment.url)
            return
        }
        closed.append(current.segment)
        sizes[current.segment.sequence] = (current.bytes, current.events)
    }

    /// Drops the oldest closed segments while the queue holds more than its limit.
    private func enforceLimit() {
        var total = sizes.values.reduce(0) { $0 + $1.bytes } + (open?.bytes ?? 0)
        var droppedNow = 0
        while total > maximumBytes, let oldest = closed.first {
            let size = sizes[oldest.sequence] ?? (0, 0)
            try? FileManager.default.removeItem(at: oldest.url)
            closed.removeFirst()
            sizes[oldest.sequence] = nil
            total -= size.bytes
            droppedNow += size.events
        }
        guard droppedNow > 0 else { return }
        let count = lock.withLock { () -> Int in
            dropped += droppedNow
            return dropped
        }
        saveDropped(count)
    }

    private func saveDropped(_ count: Int) {
        let file = directory.appendingPathComponent("dropped")
        try? Data("\(count)\n".utf8).write(to: file, options: .atomic)
    }
}
