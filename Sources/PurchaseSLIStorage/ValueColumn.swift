/// One column of a series table: each series' value id (0: no value), held in 4 bytes where it fits (as
/// stores number values, from 1 up) and through a list of the larger ones otherwise (a damaged or foreign
/// database): half the memory of a catalog of a million series.
public struct ValueColumn: Sendable, RandomAccessCollection {
    /// Per row: the value id when it fits, else −(1 + its index in `large`).
    private var codes: [Int32] = []
    /// The value ids that do not fit a code, in order of first need.
    private var large: [Int64] = []

    /// An empty column.
    public init() {}

    /// A column of `ids`.
    public init(_ ids: some Sequence<Int64>) {
        codes.reserveCapacity(ids.underestimatedCount)
        for id in ids { append(id) }
    }

    /// Adds a row of value id `id`.
    public mutating func append(_ id: Int64) {
        if id >= 0, id <= Int64(Int32.max) {
            codes.append(Int32(id))
        } else {
            large.append(id)
            codes.append(-Int32(large.count))
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { codes.count }

    /// Row `row`'s value id.
    @inline(__always)
    public subscript(row: Int) -> Int64 {
        let code = codes[row]
        return code >= 0 ? Int64(code) : large[Int(-code) - 1]
    }

    /// About how many bytes the column holds.
    var bytes: Int { codes.count * 4 + large.count * 8 }
}
