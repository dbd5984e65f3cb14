import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the queue's segments, oldest first, one request at a time: gzip NDJSON to `/v1/events`, each
/// segment removed only once the service has answered it for good.
///
/// Network errors, 408, 429 and 5xx are retried after the `Retry-After` asked for, else after an
/// exponential backoff with jitter, with the same eventIDs (the service's deduplication makes a resend
/// safe); a 413 splits the batch in two; 401 and 403 stop sending (the key is wrong: resending cannot
/// help) and say so; any other 4xx drops the batch and counts it. A 2xx drops exactly the records the
/// service rejected (logged with the reason) along with the rest, which it counted.
actor Uploader {
    private enum Delivery {
        case delivered
        case retry(after: Duration)
        case stop(SLISendingStopped)
    }

    private let configuration: SLIConfiguration
    private let queue: EventQueue
    private let session: URLSession
    private let waker = Waker()
    private(set) var stopped: SLISendingStopped?
    private(set) var statistics = SLIStatistics()
    private var recordedSinceSend = 0
    private var failures = 0
    private var notBefore: ContinuousClock.Instant?
    private var running: Task<Void, Never>?

    init(configuration: SLIConfiguration, queue: EventQueue) {
        self.configuration = configuration
        self.queue = queue
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: sessionConfiguration)
    }

    /// Sends what an earlier run left at once, then every interval, at the threshold, and after each
    /// backoff what is waiting.
    func run() async {
        await send(rotating: false)
        while !Task.isCancelled {
            let delay = notBefore.map { max(.zero, $0 - .now) } ?? configuration.sendInterval
            await waker.sleep(for: delay)
            if Task.isCancelled { break }
            await send(rotating: true)
        }
    }

    /// Notes recorded events; enough of them wake the loop before its interval ends.
    func recorded(_ count: Int) {
        recordedSinceSend += count
        if recordedSinceSend >= configuration.sendThreshold { waker.wake() }
    }

    /// Sends every waiting event now, returning when they are delivered or a send failed.
    func flush() async {
        await send(rotating: true)
    }

    /// Runs one pass over the queue, after the pass in progress (never two at once); `rotating` closes
    /// the segment being written first, so that its events go too.
    private func send(rotating: Bool) async {
        while let current = running { await current.value }
        // The pass clears `running` itself, before anyone awaiting it resumes (it runs on this actor, and
        // only once this method has stored it and suspended).
        let pass = Task {
            await self.sendWaiting(rotating: rotating)
            self.running = nil
        }
        running = pass
        await pass.value
    }

    private func sendWaiting(rotating: Bool) async {
        guard stopped == nil else { return }
        if let notBefore, ContinuousClock.now < notBefore { return }
        if rotating {
            recordedSinceSend = 0
            await queue.rotate()
        }
        for segment in await queue.segments() {
            let lines = await queue.lines(of: segment)
            let delivery = lines.isEmpty ? .delivered : await deliver(lines)
            switch delivery {
            case .delivered:
                await queue.remove(segment)
                failures = 0
                notBefore = nil
            case .retry(let delay):
                failures += 1
                statistics.retried += 1
                notBefore = .now + delay
                return
            case .stop(let reason):
                stopped = reason
                configuration.log?("purchase-sli: sending stopped: \(reason.status) \(reason.message)")
                return
            }
        }
    }

    private func deliver(_ lines: [String]) async -> Delivery {
        // More than one request may report go with the next batches.
        let dropped = min(queue.droppedCount, DroppedEventsHeader.maximumPerRequest)
        var request = URLRequest(url: configuration.endpoint.appendingPathComponent("v1/events"))
        request.httpMethod = "POST"
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
        request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
        if let key = configuration.ingestKey { request.setValue(key, forHTTPHeaderField: "X-Ingest-Key") }
        if dropped > 0 { request.setValue(String(dropped), forHTTPHeaderField: DroppedEventsHeader.name) }
        request.httpBody = Data(GzipEncoder.compress(Array(lines.joined(separator: "\n").utf8)))
        let data: Data
        let response: HTTPURLResponse
        do {
            let (body, answer) = try await session.data(for: request)
            guard let http = answer as? HTTPURLResponse else { return .retry(after: backoff()) }
            (data, response) = (body, http)
        } catch {
            configuration.log?("purchase-sli: no answer (\(error)); \(lines.count) events wait")
            return .retry(after: backoff())
        }
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        switch response.statusCode {
        case 200..<300:
            let rejected = json["rejected"] as? [[String: Any]] ?? []
            logRejected(rejected, of: lines)
            statistics.delivered += lines.count - rejected.count
            statistics.rejected += rejected.count
            if dropped > 0 {
                queue.acknowledgeDropped(dropped)
                statistics.droppedReported += dropped
            }
            return .delivered
        case 413 where lines.count > 1:
            statistics.split += 1
            for part in [Array(lines[..<(lines.count / 2)]), Array(lines[(lines.count / 2)...])] {
                let delivery = await deliver(part)
                guard case .delivered = delivery else { return delivery }
            }
            return .delivered
        case 401, 403:
            return .stop(SLISendingStopped(status: response.statusCode, message: json["error"] as? String ?? ""))
        case 408, 429, 500...599:
            return .retry(after: Self.retryAfter(response.value(forHTTPHeaderField: "Retry-After")) ?? backoff())
        case 400 where json["rejected"] != nil:
            // No valid event in the batch: every record was rejected, each with its reason.
            let rejected = json["rejected"] as? [[String: Any]] ?? []
            logRejected(rejected, of: lines)
            statistics.rejected += lines.count
            return .delivered
        default:
            statistics.refused += lines.count
            configuration.log?("purchase-sli: \(lines.count) events refused with \(response.statusCode): \(json["error"] as? String ?? "")")
            return .delivered
        }
    }

    private func logRejected(_ rejected: [[String: Any]], of lines: [String]) {
        guard let log = configuration.log else { return }
        for record in rejected {
            let index = record["index"] as? Int ?? -1
            let line = lines.indices.contains(index) ? lines[index] : "?"
            log("purchase-sli: the service rejected \(line): \(record["field"] as? String ?? ""): \(record["reason"] as? String ?? "")")
        }
    }

    /// The wait after the `failures`-th failure in a row: doubling from the initial delay up to the
    /// maximum, then a random point in its upper half (so that clients do not retry in step).
    private func backoff() -> Duration {
        let doubled = configuration.initialRetryDelay * (1 << min(failures, 20))
        let ceiling = min(doubled, configuration.maximumRetryDelay)
        return ceiling / 2 + ceiling / 2 * Double.random(in: 0...1)
    }

    /// The longest `Retry-After` obeyed: a day (a server asking for more, or for Int.max seconds, which
    /// a sleep cannot take, is asked again a day later).
    static let longestRetryAfterSeconds = 86_400

    /// `Retry-After` as seconds or an HTTP date, from 0 to ``longestRetryAfterSeconds``.
    static func retryAfter(_ value: String?) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return .seconds(min(max(0, seconds), longestRetryAfterSeconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .milliseconds(Int(min(max(0, date.timeIntervalSinceNow), Double(longestRetryAfterSeconds)) * 1000))
    }
}

/// The header with which the SDK reports the events its full queue dropped, sent with the next batch (the
/// service's `DroppedEventsHeader`; a test holds the two to one name and limit).
enum DroppedEventsHeader {
    /// `X-Purchase-SLI-Dropped-Events`.
    static let name = "X-Purchase-SLI-Dropped-Events"
    /// Most events one request reports; more go with the batches after it.
    static let maximumPerRequest = 10_000
}
