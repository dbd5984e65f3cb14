/// ``OutcomeCounts`` held in 4 bytes a count (32 bytes, half of the 64 the counts take), for counts from 0
/// to `UInt32.max`: what a minute of a series holds, millions of which a week of a large catalog's slices
/// reads. Counts that do not fit are held as ``OutcomeCounts`` instead (``StepCounts`` widens).
public struct CompactCounts: Sendable, Hashable {
    /// `start` events.
    public var start: UInt32 = 0
    /// `success` events.
    public var success: UInt32 = 0
    /// `alreadyGranted` events.
    public var alreadyGranted: UInt32 = 0
    /// `failure` events.
    public var failure: UInt32 = 0
    /// `cancel` events.
    public var cancel: UInt32 = 0
    /// `pending` events.
    public var pending: UInt32 = 0
    /// 409s.
    public var conflicts: UInt32 = 0
    /// Events whose statusCode is 5xx.
    public var serverErrors: UInt32 = 0

    /// No counts.
    @inlinable
    public init() {}

    /// `counts`, or nil when one of them is negative or over `UInt32.max`.
    @inlinable
    public init?(exactly counts: OutcomeCounts) {
        // A negative count has its high bits set, as has one over `UInt32.max`.
        let high =
            UInt64(bitPattern: counts.start) | UInt64(bitPattern: counts.success) | UInt64(bitPattern: counts.alreadyGranted)
            | UInt64(bitPattern: counts.failure) | UInt64(bitPattern: counts.cancel) | UInt64(bitPattern: counts.pending)
            | UInt64(bitPattern: counts.conflicts) | UInt64(bitPattern: counts.serverErrors)
        guard high >> 32 == 0 else { return nil }
        start = UInt32(truncatingIfNeeded: counts.start)
        success = UInt32(truncatingIfNeeded: counts.success)
        alreadyGranted = UInt32(truncatingIfNeeded: counts.alreadyGranted)
        failure = UInt32(truncatingIfNeeded: counts.failure)
        cancel = UInt32(truncatingIfNeeded: counts.cancel)
        pending = UInt32(truncatingIfNeeded: counts.pending)
        conflicts = UInt32(truncatingIfNeeded: counts.conflicts)
        serverErrors = UInt32(truncatingIfNeeded: counts.serverErrors)
    }

    /// The counts.
    @inlinable
    public var counts: OutcomeCounts {
        OutcomeCounts(
            start: Int64(start), success: Int64(success), alreadyGranted: Int64(alreadyGranted), failure: Int64(failure),
            cancel: Int64(cancel), pending: Int64(pending), conflicts: Int64(conflicts), serverErrors: Int64(serverErrors))
    }

    /// The sum of both, or nil when a count of it would pass `UInt32.max`.
    @inlinable
    public func adding(_ other: CompactCounts) -> CompactCounts? {
        let sums = (
            UInt64(start) + UInt64(other.start), UInt64(success) + UInt64(other.success),
            UInt64(alreadyGranted) + UInt64(other.alreadyGranted), UInt64(failure) + UInt64(other.failure),
            UInt64(cancel) + UInt64(other.cancel), UInt64(pending) + UInt64(other.pending),
            UInt64(conflicts) + UInt64(other.conflicts), UInt64(serverErrors) + UInt64(other.serverErrors)
        )
        guard (sums.0 | sums.1 | sums.2 | sums.3 | sums.4 | sums.5 | sums.6 | sums.7) >> 32 == 0 else { return nil }
        var sum = CompactCounts()
        (sum.start, sum.success, sum.alreadyGranted, sum.failure) = (
            UInt32(truncatingIfNeeded: sums.0), UInt32(truncatingIfNeeded: sums.1), UInt32(truncatingIfNeeded: sums.2),
            UInt32(truncatingIfNeeded: sums.3)
        )
        (sum.cancel, sum.pending, sum.conflicts, sum.serverErrors) = (
            UInt32(truncatingIfNeeded: sums.4), UInt32(truncatingIfNeeded: sums.5), UInt32(truncatingIfNeeded: sums.6),
            UInt32(truncatingIfNeeded: sums.7)
        )
        return sum
    }

    /// The difference of two running totals, `self` being the later (every count at least `earlier`'s).
    @inlinable
    public func subtracting(_ earlier: CompactCounts) -> OutcomeCounts {
        OutcomeCounts(
            start: Int64(start &- earlier.start), success: Int64(success &- earlier.success),
            alreadyGranted: Int64(alreadyGranted &- earlier.alreadyGranted), failure: Int64(failure &- earlier.failure),
            cancel: Int64(cancel &- earlier.cancel), pending: Int64(pending &- earlier.pending),
            conflicts: Int64(conflicts &- earlier.conflicts), serverErrors: Int64(serverErrors &- earlier.serverErrors))
    }

    /// Valid events (success + alreadyGranted + failure), as ``OutcomeCounts/valid`` counts them.
    @inlinable
    public var valid: Int64 { Int64(success) + Int64(alreadyGranted) + Int64(failure) }
}
