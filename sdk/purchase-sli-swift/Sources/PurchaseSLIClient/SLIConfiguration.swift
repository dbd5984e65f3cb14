public import Foundation

/// How the SDK queues and sends: where, with which key, how much it may keep, and the fields every
/// event carries.
public struct SLIConfiguration: Sendable {
    /// The service's base URL (`https://sli.example.com`); events are posted to `/v1/events` under it.
    public var endpoint: URL
    /// The ingest key (`X-Ingest-Key`), when the service requires one.
    public var ingestKey: String?
    /// The directory of the queue; it is made when missing. One process at a time may use it.
    public var queueDirectory: URL
    /// Most bytes the queue keeps on disk (5 MiB); past it the oldest events are dropped first, and
    /// their number sent to the service with the next batch.
    public var maximumQueueBytes = 5 << 20
    /// Most events in one request.
    public var maximumBatchEvents = 500
    /// Most bytes of one request's events before compression.
    public var maximumBatchBytes = 1 << 20
    /// How often waiting events are sent (30 s).
    public var sendInterval: Duration = .seconds(30)
    /// Waiting events that trigger a send before the interval ends.
    public var sendThreshold = 50
    /// The first wait after a failed send; it doubles per failure, with jitter, up to `maximumRetryDelay`.
    public var initialRetryDelay: Duration = .seconds(1)
    /// The longest wait between attempts (a `Retry-After` may ask for longer).
    public var maximumRetryDelay: Duration = .seconds(300)
    /// The app's version, platform, OS version and feature-flag cohort, set on every event.
    public var appVersion: String?, platform: String?, osVersion: String?, variant: String?
    /// The app's bundle id, set on every event (the `app` dimension, so that one service can serve several
    /// apps): the main bundle's identifier unless set otherwise.
    public var app: String? = Bundle.main.bundleIdentifier
    /// Where the SDK tells what it did (a second finish ignored, records the service rejected); nil: silent.
    public var log: (@Sendable (String) -> Void)?

    /// A configuration with the defaults above.
    public init(endpoint: URL, ingestKey: String? = nil, queueDirectory: URL) {
        self.endpoint = endpoint
        self.ingestKey = ingestKey
        self.queueDirectory = queueDirectory
    }
}
