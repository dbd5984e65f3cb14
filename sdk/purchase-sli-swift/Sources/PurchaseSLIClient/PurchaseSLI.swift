public import Foundation

/// The client of a purchase-sli service: records attempts and events to a durable queue on disk and
/// sends them in batches, safely retried.
///
/// ```swift
/// let sli = try PurchaseSLI(SLIConfiguration(endpoint: URL(string: "https://sli.example.com")!,
///                                            ingestKey: "key-2026-11", queueDirectory: cachesURL))
/// let attempt = sli.begin(.purchase, productID: "coins_100")
/// await attempt.finish(.success(transactionID: "2000000123"))
/// await sli.flush()   // when the app goes to the background
/// ```
public final class PurchaseSLI: Sendable {
    /// The configuration it was made with.
    public let configuration: SLIConfiguration
    let queue: EventQueue
    /// The attempts begun and not finished.
    let attemptsInFlight = AttemptsInFlight()
    private let uploader: Uploader
    private let loop: Task<Void, Never>

    /// Opens the queue (sending what an earlier run left) and starts sending every `sendInterval`.
    /// - Throws: when the queue directory cannot be made or read.
    public init(_ configuration: SLIConfiguration) throws {
        self.configuration = configuration
        queue = try EventQueue(
            directory: configuration.queueDirectory, maximumBytes: configuration.maximumQueueBytes,
            maximumSegmentEvents: configuration.maximumBatchEvents, maximumSegmentBytes: configuration.maximumBatchBytes,
            log: configuration.log)
        let uploader = Uploader(configuration: configuration, queue: queue)
        self.uploader = uploader
        loop = Task { await uploader.run() }
    }

    deinit { loop.cancel() }

    /// Records the `start` of an attempt (without waiting for the disk) and returns the attempt, whose
    /// ``PurchaseAttempt/finish(_:responseDescription:)`` records how it ended.
    public func begin(
        _ action: SLIAction, productID: String, planID: String? = nil, groupID: String? = nil, offerID: String? = nil,
        appAccountToken: UUID? = nil
    ) -> PurchaseAttempt {
        var start = SLIEvent(productID: productID, actionType: action, resultType: .start)
        (start.planID, start.groupID, start.offerID) = (planID, groupID, offerID)
        start.appAccountToken = appAccountToken?.uuidString.lowercased()
        return begin(start: start, tracked: true)
    }

    /// Records `start` and returns its attempt; a `tracked` attempt covers the transactions StoreKit
    /// delivers for its product or appAccountToken until it finishes (``TransactionRecorder`` leaves them to it).
    func begin(start: SLIEvent, tracked: Bool) -> PurchaseAttempt {
        if tracked {
            attemptsInFlight.begin(
                start.eventID, productID: start.productID, appAccountToken: start.appAccountToken.flatMap(UUID.init(uuidString:)),
                at: start.timestamp)
        }
        queue.append([stamped(start).jsonLine]) { [uploader] in Task { await uploader.recorded(1) } }
        return PurchaseAttempt(sli: self, start: start)
    }

    /// Records an event as it is (its eventID and time kept; the common fields filled where it has
    /// none), and returns once it is on disk: for grant servers and importers.
    public func record(_ event: SLIEvent) async {
        await queue.append([stamped(event).jsonLine])
        await uploader.recorded(1)
    }

    /// Records events as they are, in one write, returning once they are on disk.
    public func record(_ events: [SLIEvent]) async {
        await queue.append(events.map { stamped($0).jsonLine })
        await uploader.recorded(events.count)
    }

    /// Sends every waiting event now (call it when the app goes to the background), returning when
    /// they are delivered or a send failed (the queue keeps them for the next attempt).
    public func flush() async {
        await uploader.flush()
    }

    /// Why sending stopped (401 or 403: a key the service does not accept), or nil while it goes on.
    public var sendingStopped: SLISendingStopped? {
        get async { await uploader.stopped }
    }

    /// Events on disk waiting to be sent.
    public var waitingEvents: Int {
        get async { await queue.waitingCount() }
    }

    /// Events dropped because the queue was full (or the disk refused them), not yet reported to the service.
    public var droppedEvents: Int { queue.droppedCount }

    /// What was sent, dropped and retried so far.
    public var statistics: SLIStatistics {
        get async { await uploader.statistics }
    }

    /// Stops sending (what is queued stays on disk for the next run).
    public func close() {
        loop.cancel()
    }

    private func stamped(_ event: SLIEvent) -> SLIEvent {
        var event = event
        event.appVersion = event.appVersion ?? configuration.appVersion
        event.platform = event.platform ?? configuration.platform
        event.osVersion = event.osVersion ?? configuration.osVersion
        event.variant = event.variant ?? configuration.variant
        event.app = event.app ?? configuration.app
        return event
    }
}

/// The service refused the key: sending stopped until the app makes a new client.
public struct SLISendingStopped: Error, Sendable, Hashable {
    /// The HTTP status (401 or 403).
    public let status: Int
    /// The service's message.
    public let message: String
}

/// What the client has done since it was made.
public struct SLIStatistics: Sendable, Hashable {
    /// Events the service counted (accepted or skipped as duplicates).
    public var delivered = 0
    /// Events the service rejected as invalid (logged with the reason).
    public var rejected = 0
    /// Events of batches the service refused with a 4xx other than 401, 403, 408, 413 and 429.
    public var refused = 0
    /// Requests answered with a status to retry (408, 429, 5xx) or that got no answer.
    public var retried = 0
    /// Batches split in two after a 413.
    public var split = 0
    /// Events dropped because the queue was full, reported to the service.
    public var droppedReported = 0
}
