/// Numbers the distinct value ids of a column 0, 1, 2… in order of first sight, through an array indexed
/// by id where ids are small (as stores number values) and a dictionary past that: what lets a grouping
/// of a million series look each up without hashing.
struct ValueOrdinals {
    /// Per value id below ``denseLimit``: its ordinal, or -1 when not seen yet.
    private var ordinalOfDenseID: [Int32] = []
    /// The ordinals of other ids (negative, or past ``denseLimit``).
    private var ordinalOfSparseID: [Int64: Int32] = [:]
    /// Per ordinal, its value id.
    private(set) var ids: [Int64] = []

    /// Ids below this are numbered through an array (4 bytes per id up to the largest seen).
    private static let denseLimit: Int64 = 1 << 22

    /// How many distinct ids have been numbered.
    var count: Int { ids.count }

    /// The ordinal of `id`, numbering it when first seen.
    @inline(__always)
    mutating func ordinal(of id: Int64) -> Int32 {
        if id >= 0, id < Self.denseLimit {
            let index = Int(id)
            if index < ordinalOfDenseID.count, ordinalOfDenseID[index] >= 0 { return ordinalOfDenseID[index] }
            if index >= ordinalOfDenseID.count {
                let grown = min(Int(Self.denseLimit), max(index + 1, ordinalOfDenseID.count * 2))
                ordinalOfDenseID.append(contentsOf: repeatElement(-1, count: grown - ordinalOfDenseID.count))
            }
            ordinalOfDenseID[index] = Int32(ids.count)
        } else {
            if let known = ordinalOfSparseID[id] { return known }
            ordinalOfSparseID[id] = Int32(ids.count)
        }
        ids.append(id)
        return Int32(ids.count - 1)
    }
}

/// The grouped columns of a grouping, each row's values numbered per column (``ValueOrdinals``), so that a
/// row's key is a few small integers: one number in a mixed radix when their product is small.
struct GroupKeys {
    /// Per grouped column: its values' numbering, and each row's ordinal there.
    private let columns: [(ordinals: ValueOrdinals, rows: [Int32])]

    /// The keys of the rows of `columns` that `rows` keeps (others get ordinal 0 and are not asked for).
    init(columns: [ValueColumn], rows: [Bool]) {
        self.columns = columns.map { values in
            var ordinals = ValueOrdinals()
            let rowOrdinals = rows.indices.map { rows[$0] ? ordinals.ordinal(of: values[$0]) : 0 }
            return (ordinals, rowOrdinals)
        }
    }

    /// The value ids of `row`'s key, column by column.
    func valueIDs(row: Int) -> [Int64] { columns.map { $0.ordinals.ids[Int($0.rows[row])] } }

    /// An empty index of these keys: a table indexed by the mixed-radix number of a key when the columns'
    /// distinct values multiply to at most ``denseKeys``, else a dictionary.
    func makeIndex() -> GroupIndex {
        var product = 1
        for column in columns {
            let (next, overflow) = product.multipliedReportingOverflow(by: max(1, column.ordinals.count))
            guard !overflow, next <= GroupIndex.denseKeys else { return GroupIndex(radices: nil) }
            product = next
        }
        return GroupIndex(radices: columns.map { max(1, $0.ordinals.count) })
    }

    /// `row`'s key as one number in the mixed radix of the columns' distinct counts.
    fileprivate func number(row: Int, radices: [Int]) -> Int {
        var number = 0
        for (column, radix) in zip(columns, radices) { number = number * radix + Int(column.rows[row]) }
        return number
    }

    /// `row`'s key as its ordinals.
    fileprivate func ordinals(row: Int) -> [Int32] { columns.map { $0.rows[row] } }
}

/// The group of each key seen: a table by the key's number, or a dictionary by its ordinals.
struct GroupIndex {
    /// Keys whose columns' distinct values multiply to at most this are found through a table.
    static let denseKeys = 1 << 22
    /// The radices of the key's number, or nil for the dictionary.
    fileprivate let radices: [Int]?
    private var groupOfNumber: [Int32]
    private var groupOfOrdinals: [[Int32]: Int32] = [:]

    fileprivate init(radices: [Int]?) {
        self.radices = radices
        groupOfNumber = [Int32](repeating: -1, count: radices?.reduce(1, *) ?? 0)
    }

    /// The group of `row`'s key in `keys`, `next` (which the caller then adds) when the key is new.
    @inline(__always)
    mutating func group(of keys: GroupKeys, row: Int, next: Int32) -> Int32 {
        guard let radices else {
            let ordinals = keys.ordinals(row: row)
            if let known = groupOfOrdinals[ordinals] { return known }
            groupOfOrdinals[ordinals] = next
            return next
        }
        let number = keys.number(row: row, radices: radices)
        if groupOfNumber[number] < 0 { groupOfNumber[number] = next }
        return groupOfNumber[number]
    }
}
