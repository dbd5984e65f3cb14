/// What the team's grant server answered when a charge not granted was posted to it (the make-whole
/// list): one per store and transaction, the latest attempt's.
public struct MakeWholeDelivery: Sendable, Hashable {
    /// How it ended.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// The grant server took it (a 2xx): granted now.
        case delivered
        /// The grant server answered 409: it had granted the transaction already.
        case alreadyGranted = "already-granted"
        /// The grant server refused it for good (another 4xx): a person must look.
        case refused
        /// No answer, or a 5xx, through every retry: it is tried again next time.
        case failed
        /// A person wrote the charge off, with the reason in ``MakeWholeDelivery/detail``
        /// (`purchase-sli charges write-off`): no longer owed, never posted.
        case writtenOff = "written-off"

        /// Whether it is settled: delivered, already granted, or refused (not posted again).
        public var isSettled: Bool { self != .failed }
    }

    /// The store and the transaction (Play: the purchase token).
    public var store: Store
    public var transactionID: String
    /// How it ended, the last HTTP status (0: no answer), and a few words of the answer or the error.
    public var outcome: Outcome
    public var status: Int
    public var detail: String
    /// The attempts made so far, over every run, and when the last one was made (milliseconds).
    public var attempts: Int
    public var lastAttemptMillis: Int64

    /// Creates a delivery record.
    public init(store: Store, transactionID: String, outcome: Outcome, status: Int, detail: String, attempts: Int, lastAttemptMillis: Int64) {
        self.store = store
        self.transactionID = transactionID
        self.outcome = outcome
        self.status = status
        self.detail = detail
        self.attempts = attempts
        self.lastAttemptMillis = lastAttemptMillis
    }
}
