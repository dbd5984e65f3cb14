/// Each series id's group (or none) in the narrowest width that holds the groups: a byte a series for
/// up to 255 groups, two bytes for up to 65,535, four beyond. Most queries have a few groups (an action's
/// totals, its products), so a million-series catalog's grouping takes about a megabyte rather than four,
/// and a store's ``CatalogMemo`` keeps an evaluation's groupings between minutes.
struct PackedGroups: Sendable {
    /// The groups, with the width's largest value for none.
    private enum Storage: Sendable {
        case bytes([UInt8])
        case halfWords([UInt16])
        case words([UInt32])
    }

    private let storage: Storage
    /// How many ids are mapped: `0..<count`.
    let count: Int

    /// The groups of `count` ids: each of `ids` below `count` in `groups[row]` (negative for none), every
    /// other id in none. `groupCount` is one more than the largest group.
    init(count: Int, groupCount: Int, ids: [Int64], groups: [Int32]) {
        self.count = count
        if groupCount <= Int(UInt8.max) {
            storage = .bytes(Self.packed(count: count, ids: ids, groups: groups))
        } else if groupCount <= Int(UInt16.max) {
            storage = .halfWords(Self.packed(count: count, ids: ids, groups: groups))
        } else {
            storage = .words(Self.packed(count: count, ids: ids, groups: groups))
        }
    }

    /// The group of `id` (in `0..<count`), or nil for none.
    subscript(id id: Int) -> Int32? {
        switch storage {
        case .bytes(let groups): groups[id] == .max ? nil : Int32(groups[id])
        case .halfWords(let groups): groups[id] == .max ? nil : Int32(groups[id])
        case .words(let groups): groups[id] == .max ? nil : Int32(groups[id])
        }
    }

    /// The bytes the groups take.
    var bytes: Int {
        switch storage {
        case .bytes(let groups): groups.count
        case .halfWords(let groups): groups.count * 2
        case .words(let groups): groups.count * 4
        }
    }

    /// `groups` placed at their `ids` in `count` words of `Word`, `Word.max` elsewhere.
    private static func packed<Word: FixedWidthInteger & UnsignedInteger>(count: Int, ids: [Int64], groups: [Int32]) -> [Word] {
        var words = [Word](repeating: .max, count: count)
        for (id, group) in zip(ids, groups) where id >= 0 && id < count && group >= 0 {
            words[Int(id)] = Word(truncatingIfNeeded: group)
        }
        return words
    }
}
