/// Event counts by outcome for one bucket, series or group, with the rates derived from them.
public struct OutcomeCounts: Sendable, Hashable, Codable {
    /// `start` events: attempts.
    public var start: Int64 = 0
    /// `success` events.
    public var success: Int64 = 0
    /// `alreadyGranted` events (the server's 409 "already granted").
    public var alreadyGranted: Int64 = 0
    /// `failure` events.
    public var failure: Int64 = 0
    /// `cancel` events.
    public var cancel: Int64 = 0
    /// `pending` events.
    public var pending: Int64 = 0
    /// 409s: events with resultType `alreadyGranted` or statusCode 409 (each event counted once).
    public var conflicts: Int64 = 0
    /// Events whose statusCode is 5xx.
    public var serverErrors: Int64 = 0

    /// Creates counts, all zero unless given.
    public init(
        start: Int64 = 0, success: Int64 = 0, alreadyGranted: Int64 = 0, failure: Int64 = 0, cancel: Int64 = 0,
        pending: Int64 = 0, conflicts: Int64 = 0, serverErrors: Int64 = 0
    ) {
        self.start = start
        self.success = success
        self.alreadyGranted = alreadyGranted
        self.failure = failure
        self.cancel = cancel
        self.pending = pending
        self.conflicts = conflicts
        self.serverErrors = serverErrors
    }

    /// Counts one event.
    @inlinable
    public mutating func add(_ result: ResultType, statusCode: Int?) {
        self[result] += 1
        if result == .alreadyGranted || statusCode == 409 { conflicts += 1 }
        if let statusCode, statusCode >= 500 { serverErrors += 1 }
    }

    /// Adds another set of counts.
    @inlinable
    public static func += (lhs: inout OutcomeCounts, rhs: OutcomeCounts) {
        lhs.start += rhs.start
        lhs.success += rhs.success
        lhs.alreadyGranted += rhs.alreadyGranted
        lhs.failure += rhs.failure
        lhs.cancel += rhs.cancel
        lhs.pending += rhs.pending
        lhs.conflicts += rhs.conflicts
        lhs.serverErrors += rhs.serverErrors
    }

    /// The sum of two sets of counts.
    @inlinable
    public static func + (lhs: OutcomeCounts, rhs: OutcomeCounts) -> OutcomeCounts {
        var sum = lhs
        sum += rhs
        return sum
    }

    /// The count of one result type.
    @inlinable
    public subscript(result: ResultType) -> Int64 {
        get {
            switch result {
            case .start: start
            case .success: success
            case .alreadyGranted: alreadyGranted
            case .failure: failure
            case .cancel: cancel
            case .pending: pending
            }
        }
        set {
            switch result {
            case .start: start = newValue
            case .success: success = newValue
            case .alreadyGranted: alreadyGranted = newValue
            case .failure: failure = newValue
            case .cancel: cancel = newValue
            case .pending: pending = newValue
            }
        }
    }

    /// All events counted.
    @inlinable
    public var total: Int64 { start + success + alreadyGranted + failure + cancel + pending }
    /// Attempts: `start` events.
    public var attempts: Int64 { start }
    /// success + alreadyGranted + failure: the success-rate denominator.
    @inlinable
    public var valid: Int64 { success + alreadyGranted + failure }
    /// Whether nothing was counted.
    @inlinable
    public var isEmpty: Bool { total == 0 }

    /// success + alreadyGranted: the events that ended with the user holding what they paid for (a 409
    /// says the flow sent twice, not that the user lost anything).
    @inlinable
    public var good: Int64 { success + alreadyGranted }

    /// good / valid, or nil when there is no valid event: the success rate, the SLI every objective,
    /// page and comparison reads.
    public var successRate: Double? {
        valid == 0 ? nil : Double(good) / Double(valid)
    }

    /// failure / valid, or nil when there is no valid event: the success rate's complement, by which a
    /// slice's failures are compared with the rest's.
    public var failureRate: Double? {
        valid == 0 ? nil : Double(failure) / Double(valid)
    }

    /// good / attempts (at most 1), or nil without attempts: an attempt cancelled or never finished is a
    /// lost success too, so it is what incidents and lost purchases are measured by where the events
    /// count attempts.
    public var successRatePerAttempt: Double? {
        attempts == 0 ? nil : min(1, Double(good) / Double(attempts))
    }

}
