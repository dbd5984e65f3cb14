package import PurchaseSLICore

/// The compact encoding of one bucket: the counts of every series active in it, in one blob.
///
/// At the volumes apps send, a minute holds about 1.4 events per series, so a row per (minute, series)
/// would spend more bytes on SQLite's row overhead than on counts. Instead each bucket is one row whose
/// blob lists its series in ascending id order: the id as a delta from the previous one (LEB128), a
/// byte whose bits say which of the eight counters are non-zero, then those counters (LEB128).
/// A typical entry takes 3–5 bytes.
package enum BucketCodec {
    /// Encodes series counts; `entries` must be sorted by series id. O(n).
    package static func encode(_ entries: [(series: Int64, counts: OutcomeCounts)]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 5)
        var previous: Int64 = 0
        for (series, counts) in entries {
            appendVarint(UInt64(series - previous), to: &bytes)
            previous = series
            let values = counterValues(counts)
            var mask: UInt8 = 0
            for (bit, value) in values.enumerated() where value != 0 { mask |= 1 << UInt8(bit) }
            bytes.append(mask)
            for value in values where value != 0 { appendVarint(UInt64(value), to: &bytes) }
        }
        return bytes
    }

    /// Calls `body` with each (series, counts) entry of an encoded bucket, in series order. O(n).
    static func forEachEntry(
        in bytes: UnsafeRawBufferPointer, _ body: (Int64, OutcomeCounts) throws -> Void
    ) throws {
        var reader = VarintReader(bytes: bytes)
        var series: Int64 = 0
        while !reader.isAtEnd {
            series += try reader.count()
            guard series <= VarintReader.largestCount else { throw CorruptBucketError(detail: "a series id beyond \(VarintReader.largestCount)") }
            let mask = try reader.byte()
            var counts = OutcomeCounts()
            if mask & 0x01 != 0 { counts.start = try reader.count() }
            if mask & 0x02 != 0 { counts.success = try reader.count() }
            if mask & 0x04 != 0 { counts.alreadyGranted = try reader.count() }
            if mask & 0x08 != 0 { counts.failure = try reader.count() }
            if mask & 0x10 != 0 { counts.cancel = try reader.count() }
            if mask & 0x20 != 0 { counts.pending = try reader.count() }
            if mask & 0x40 != 0 { counts.conflicts = try reader.count() }
            if mask & 0x80 != 0 { counts.serverErrors = try reader.count() }
            try body(series, counts)
        }
    }

    /// Decodes a whole bucket into entries sorted by series id.
    package static func decode(_ bytes: UnsafeRawBufferPointer) throws -> [(series: Int64, counts: OutcomeCounts)] {
        var entries: [(series: Int64, counts: OutcomeCounts)] = []
        try forEachEntry(in: bytes) { entries.append(($0, $1)) }
        return entries
    }

    /// Adds `additions` (sorted by series) to an encoded bucket and returns the new encoding. O(n + m).
    package static func merge(
        _ existing: UnsafeRawBufferPointer?, adding additions: [(series: Int64, counts: OutcomeCounts)]
    ) throws -> [UInt8] {
        guard let existing, existing.count > 0 else { return encode(additions) }
        let merged = mergeSorted(try decode(existing), additions, key: \.series) { ($0.series, $0.counts + $1.counts) }
        return encode(merged)
    }

    private static func counterValues(_ counts: OutcomeCounts) -> [Int64] {
        [
            counts.start, counts.success, counts.alreadyGranted, counts.failure, counts.cancel, counts.pending,
            counts.conflicts, counts.serverErrors,
        ]
    }
}

/// The encoding of a bucket's error descriptions: (series, result, error value id, events), LEB128,
/// sorted by series, result, then error. The result (its position in `ResultType.allCases`) keeps a
/// cancel's "payment cancelled" apart from a failure's reasons.
package enum ErrorCodec {
    /// One (series, result description, error description) key of an error bucket.
    package struct Entry: Hashable, Comparable {
        var series: Int64
        var result: Int64
        var error: Int64

        package static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.series, lhs.result, lhs.error) < (rhs.series, rhs.result, rhs.error)
        }
    }

    /// Encodes entries sorted by ``Entry``. O(n).
    package static func encode(_ entries: [(entry: Entry, events: Int64)]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 4)
        for (entry, events) in entries {
            appendVarint(UInt64(entry.series), to: &bytes)
            appendVarint(UInt64(entry.result), to: &bytes)
            appendVarint(UInt64(entry.error), to: &bytes)
            appendVarint(UInt64(events), to: &bytes)
        }
        return bytes
    }

    /// Decodes entries, in their stored (sorted) order. O(n).
    package static func decode(_ bytes: UnsafeRawBufferPointer) throws -> [(entry: Entry, events: Int64)] {
        var entries: [(entry: Entry, events: Int64)] = []
        var reader = VarintReader(bytes: bytes)
        while !reader.isAtEnd {
            let entry = Entry(
                series: try reader.count(), result: try reader.count(), error: try reader.count())
            entries.append((entry, try reader.count()))
        }
        return entries
    }

    /// Adds `additions` (sorted) to an encoded bucket and returns the new encoding. O(n + m).
    package static func merge(_ existing: UnsafeRawBufferPointer?, adding additions: [(entry: Entry, events: Int64)]) throws -> [UInt8] {
        guard let existing, existing.count > 0 else { return encode(additions) }
        let merged = mergeSorted(try decode(existing), additions, key: \.entry) { ($0.entry, $0.events + $1.events) }
        return encode(merged)
    }
}

/// Merges two arrays sorted by `key` (each key at most once per array), combining elements whose keys
/// are equal. O(n + m).
func mergeSorted<Element, Key: Comparable>(
    _ left: [Element], _ right: [Element], key: (Element) -> Key, combine: (Element, Element) -> Element
) -> [Element] {
    var merged: [Element] = []
    merged.reserveCapacity(left.count + right.count)
    var leftIndex = 0
    var rightIndex = 0
    while leftIndex < left.count || rightIndex < right.count {
        if rightIndex == right.count || (leftIndex < left.count && key(left[leftIndex]) < key(right[rightIndex])) {
            merged.append(left[leftIndex])
            leftIndex += 1
        } else if leftIndex == left.count || key(right[rightIndex]) < key(left[leftIndex]) {
            merged.append(right[rightIndex])
            rightIndex += 1
        } else {
            merged.append(combine(left[leftIndex], right[rightIndex]))
            leftIndex += 1
            rightIndex += 1
        }
    }
    return merged
}

/// A bucket blob that does not decode: the database was damaged or written by something else. The store
/// turns it into a ``StorageError`` naming the table and the bucket.
package struct CorruptBucketError: Error {
    /// What did not decode.
    package let detail: String
}

func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
    var remaining = value
    while remaining >= 0x80 {
        bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
        remaining >>= 7
    }
    bytes.append(UInt8(remaining))
}

struct VarintReader {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    var isAtEnd: Bool { position >= bytes.count }

    /// The largest count (or series id) a bucket may hold: 2⁴⁰, a trillion events. Sums of stored counts
    /// then stay far from `Int64`'s limit, so a damaged blob cannot make arithmetic trap.
    static let largestCount: Int64 = 1 << 40

    mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw CorruptBucketError(detail: "an entry cut short") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func next() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
            guard shift < 64 else { throw CorruptBucketError(detail: "a number longer than 64 bits") }
        }
    }

    /// The next number, when it is a count no larger than ``largestCount``.
    mutating func count() throws -> Int64 {
        let value = try next()
        guard value <= UInt64(Self.largestCount) else { throw CorruptBucketError(detail: "a count of \(value)") }
        return Int64(value)
    }
}
