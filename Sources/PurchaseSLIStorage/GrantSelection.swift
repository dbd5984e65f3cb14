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
    /// those at or after `fromMillis` (``Repeating``). When those are few (an evaluation of the latest
    /// minutes against days of grants), the grants whose fingerprint none of them has are left out first,
    /// by a bitmap of their fingerprints (``sharingFingerprints(with:of:fromMillis:)``). The grants
    /// are parted by their fingerprint's top bits (a fingerprint is a hash: the parts come out even, a
    /// few dozen grants each), each part sorted by fingerprint and time where it fits in cache: a grant's
    /// latest predecessor of its fingerprint is the grant before it. O(n) but for the parts' sorting,
    /// with no table of every fingerprint.
    public static func repeating(_ grants: [GrantFingerprint], fromMillis: Int64, spanMillis: Int64) -> Repeating {
        let laterCount = grants.reduce(0) { $0 + ($1.millis >= fromMillis ? 1 : 0) }
        guard laterCount * 4 < grants.count else { return repeatingAmong(grants, fromMillis: fromMillis, spanMillis: spanMillis) }
        return repeatingAmong(
            sharingFingerprints(with: laterCount, of: grants, fromMillis: fromMillis), fromMillis: fromMillis, spanMillis: spanMillis)
    }

    /// The grants of `grants` whose fingerprint may be that of one of the `laterCount` grants at or after
    /// `fromMillis` (those grants among them): a bitmap of about 32 bits per such grant (2^12 to 2^28 bits),
    /// indexed by the fingerprints' low bits, lets through every grant that shares one and about one in
    /// 32 others.
    private static func sharingFingerprints(with laterCount: Int, of grants: [GrantFingerprint], fromMillis: Int64) -> [GrantFingerprint] {
        let bits = max(12, min(28, Int.bitWidth - (laterCount * 32).leadingZeroBitCount))
        let mask = UInt64(1) << UInt64(bits) - 1
        var bitmap = [UInt64](repeating: 0, count: 1 << (bits - 6))
        for grant in grants where grant.millis >= fromMillis {
            let bit = grant.transaction & mask
            bitmap[Int(bit >> 6)] |= 1 << (bit & 63)
        }
        return grants.filter { grant in
            let bit = grant.transaction & mask
            return bitmap[Int(bit >> 6)] & (1 << (bit & 63)) != 0
        }
    }

    /// ``repeating(_:fromMillis:spanMillis:)`` over every grant of `grants`.
    private static func repeatingAmong(_ grants: [GrantFingerprint], fromMillis: Int64, spanMillis: Int64) -> Repeating {
        let partBits = max(1, min(16, Int.bitWidth - (grants.count / 32).leadingZeroBitCount))
        let shift = UInt64(UInt64.bitWidth - partBits)
        var partStarts = [Int](repeating: 0, count: (1 << partBits) + 1)
        for grant in grants { partStarts[Int(grant.transaction >> shift) + 1] += 1 }
        for part in 0..<(1 << partBits) { partStarts[part + 1] += partStarts[part] }
        var parted = grants
        var next = partStarts
        for grant in grants {
            let part = Int(grant.transaction >> shift)
            parted[next[part]] = grant
            next[part] += 1
        }
        var found = Repeating(fingerprints: [], times: [])
        for part in 0..<(1 << partBits) where partStarts[part + 1] - partStarts[part] > 1 {
            let range = partStarts[part]..<partStarts[part + 1]
            parted[range].sort { ($0.transaction, $0.millis) < ($1.transaction, $1.millis) }
            for index in range.dropFirst() {
                let (before, grant) = (parted[index - 1], parted[index])
                guard grant.transaction == before.transaction, grant.millis >= fromMillis, grant.millis - before.millis <= spanMillis
                else { continue }
                found.fingerprints.insert(grant.transaction)
                found.times.append(grant.millis)
            }
        }
        found.times.sort()
        return found
    }
}
