/// Which of the grants of a time a read returns (``StoreRecordStore/grants(fromMillis:toMillis:of:)``).
public enum GrantSelection: Sendable, Hashable {
    /// Every grant.
    case every
    /// The grants of these transactions (in any order, one perhaps more than once).
    case transactions([String])
    /// The grants whose transaction id has one of these fingerprints (``GrantFingerprint``): those of the
    /// transactions a read of fingerprints found granted more than once, and rarely of others.
    case fingerprints(Set<UInt64>)
}

/// A grant's time and the fingerprint of its transaction id: a 64-bit hash, equal for equal ids however a
/// blob stores them, and (rarely) equal for two ids. A store reads these far faster than whole grants,
/// which finds the few transactions granted more than once without decoding every grant.
public struct GrantFingerprint: Sendable, Hashable {
    /// When it was granted, in milliseconds.
    public var millis: Int64
    /// The fingerprint of its transaction id.
    public var transaction: UInt64

    /// A grant at `millis` of a transaction of fingerprint `transaction`.
    public init(millis: Int64, transaction: UInt64) {
        self.millis = millis
        self.transaction = transaction
    }
}

extension GrantFingerprint {
    /// What `grants` (of any order) tell of grants that may repeat an earlier one within `spanMillis`.
    public struct Repeating: Sendable, Hashable {
        /// The fingerprints of which two grants lie at most the span apart, the later at or after the
        /// start: every transaction granted again, and perhaps another of one of these fingerprints.
        public var fingerprints: Set<UInt64>
        /// Those later grants' times, ascending: when a grant may have repeated one.
        public var times: [Int64]
    }

    /// The grants of `grants` that may repeat an earlier one of at most `spanMillis` before them, among
    /// those at or after `fromMillis` (``Repeating``): walked by time, each grant's latest predecessor of
    /// its fingerprint is the one a dictionary last kept. O(n) for grants nearly by time (as a store reads
    /// them, by minute), O(n log n) at worst.
    public static func repeating(_ grants: [GrantFingerprint], fromMillis: Int64, spanMillis: Int64) -> Repeating {
        let byTime = grants.sorted { $0.millis < $1.millis }
        var latest: [UInt64: Int64] = [:]
        latest.reserveCapacity(byTime.count)
        var found = Repeating(fingerprints: [], times: [])
        for grant in byTime {
            guard let before = latest.updateValue(grant.millis, forKey: grant.transaction), grant.millis >= fromMillis,
                grant.millis - before <= spanMillis
            else { continue }
            found.fingerprints.insert(grant.transaction)
            found.times.append(grant.millis)
        }
        return found
    }
}
