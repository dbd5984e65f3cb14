/// One column of a series table: each series' value id (0: no value). While the column has at most 256
/// distinct ids, a row holds the index of its id among them in a byte, up to 65,536 in two; past that, the
/// id itself in 4 bytes where it fits (as stores number values, from 1 up) and through a list of the larger
/// ones otherwise (a damaged or foreign database). Most dimensions (an action, a store, an app version)
/// have a few values over a catalog of a million series: a byte a series instead of 8.
public struct ValueColumn: Sendable, RandomAccessCollection {
    /// Per row, while ``distinct`` has at most 256 ids: the index of its id there.
    private var narrow: [UInt8] = []
    /// Per row, while ``distinct`` has at most 65,536 ids: the index of its id there.
    private var medium: [UInt16] = []
    /// Per row, past that: the value id when it fits, else −(1 + its index in `large`).
    private var codes: [Int32] = []
    /// The value ids that do not fit a code, in order of first need.
    private var large: [Int64] = []
    /// The distinct ids, in order of first sight, while rows hold indices into them.
    private var distinct: [Int64] = []
    /// The index of each id of ``distinct``.
    private var indexOfID: [Int64: Int] = [:]
    /// The bytes a row takes: 1 (`narrow`), 2 (`medium`) or 4 (`codes`).
    private var width = 1
    /// The id of the row appended last and its index in ``distinct``: consecutive series often share a
    /// value, found without hashing.
    private var last: (id: Int64, index: Int)?

    /// An empty column.
    public init() {}

    /// A column of `ids`.
    public init(_ ids: some Sequence<Int64>) {
        narrow.reserveCapacity(ids.underestimatedCount)
        for id in ids { append(id) }
    }

    /// Adds a row of value id `id`.
    public mutating func append(_ id: Int64) {
        if width < 4 {
            let index = last.flatMap { $0.id == id ? $0.index : nil } ?? indexOfID[id] ?? addDistinct(id)
            last = (id, index)
            if width == 1, index <= Int(UInt8.max) {
                narrow.append(UInt8(index))
                return
            }
            if width == 1 { widen(to: 2) }
            if width == 2, index <= Int(UInt16.max) {
                medium.append(UInt16(index))
                return
            }
            widen(to: 4)
        }
        if id >= 0, id <= Int64(Int32.max) {
            codes.append(Int32(id))
        } else {
            large.append(id)
            codes.append(-Int32(large.count))
        }
    }

    /// Numbers `id` among the distinct ids.
    private mutating func addDistinct(_ id: Int64) -> Int {
        distinct.append(id)
        indexOfID[id] = distinct.count - 1
        return distinct.count - 1
    }

    /// Holds the rows in `bytes` bytes each from now on.
    private mutating func widen(to bytes: Int) {
        if bytes == 2 {
            // The same indices, in two bytes.
            medium.reserveCapacity(narrow.count + narrow.count / 2)
            medium.append(contentsOf: narrow.lazy.map(UInt16.init))
            (narrow, width) = ([], 2)
            return
        }
        let ids = Array(self)
        (narrow, medium, codes, large, width) = ([], [], [], [], bytes)
        (distinct, indexOfID, last) = ([], [:], nil)
        codes.reserveCapacity(ids.count + ids.count / 2)
        for id in ids { append(id) }
    }

    /// The first row: 0.
    public var startIndex: Int { 0 }
    /// The number of rows.
    public var endIndex: Int {
        switch width {
        case 1: narrow.count
        case 2: medium.count
        default: codes.count
        }
    }

    /// Row `row`'s value id.
    @inline(__always)
    public subscript(row: Int) -> Int64 {
        switch width {
        case 1: return distinct[Int(narrow[row])]
        case 2: return distinct[Int(medium[row])]
        default:
            let code = codes[row]
            return code >= 0 ? Int64(code) : large[Int(-code) - 1]
        }
    }

    /// About how many bytes the column holds.
    var bytes: Int { count * width + large.count * 8 + distinct.count * 24 }
}
