import PurchaseSLICore

/// How a catalog's series fall into the groups of some grouped dimensions, under the filters and required
/// values of the other dimensions: what queries that differ only in their filters on grouped dimensions
/// share (a store's ``CatalogMemo`` keeps it). Those filters pick among the groups (``SeriesGrouping``),
/// so that an evaluation whose slices worth reading change each minute does not group the catalog again.
struct CatalogGrouping: Sendable {
    /// Per series id: the group index, or none when filtered out (ids up to ``denseLimit``).
    private let groupOfSeries: PackedGroups
    /// The groups of series with larger ids (which a damaged or foreign database may hold).
    private var groupOfLargeSeries: [Int64: Int32] = [:]
    /// The series grouped, when a filter or a required value leaves some out.
    private(set) var counted: SeriesSelection?
    /// Per group: the values of the grouping dimensions (resultType and errorDescription excluded).
    private(set) var groupKeys: [[String?]] = []

    /// Series ids below this are mapped through an array, larger ones through a dictionary.
    static let denseLimit: Int64 = 1 << 24

    /// What a grouping depends on besides the table: what a query groups by, its required values, and its
    /// filters on dimensions it does not group by.
    struct Key: Hashable {
        let groupBy: [EventDimension]
        let filters: [EventDimension: Set<String?>]
        let requiredValues: Set<EventDimension>

        init(_ query: CountQuery) {
            (groupBy, requiredValues) = (query.groupBy, query.requiredValues)
            filters = query.filters.filter { !Self.picksGroups($0.key, of: query) }
        }

        /// Whether `dimension`'s filter in `query` picks among its groups rather than its series: a
        /// series dimension it groups by.
        static func picksGroups(_ dimension: EventDimension, of query: CountQuery) -> Bool {
            dimension.seriesIndex != nil && query.groupBy.contains(dimension)
        }
    }

    /// The grouping of `table`'s series (columns of `dimensions`; ids below `denseCount` mapped through an
    /// array) for `key`: series with equal value ids in the grouped columns share a group, a filter is
    /// decided once per value id, and each group's text is read once. O(series × columns), by array lookups.
    init(_ table: SeriesTable, denseCount: Int, dimensions: [EventDimension], key: Key) {
        let column = { (dimension: EventDimension) in dimension.seriesIndex.map { _ in table.columns[dimensions.firstIndex(of: dimension)!] } }
        let requiredColumns = key.requiredValues.compactMap(column)
        let filters = key.filters.compactMap { dimension, allowed in column(dimension).map { (values: $0, allowed: allowed) } }
        // Whether each row passes the filters and required values.
        var passes = [Bool](repeating: true, count: table.count)
        for required in requiredColumns {
            for row in passes.indices where required[row] == 0 { passes[row] = false }
        }
        for filter in filters {
            var ordinals = ValueOrdinals()
            var allowed: [Bool] = []
            // Read from a copy made once, not from the tuple at every row.
            let values = filter.values
            for row in passes.indices where passes[row] {
                let ordinal = Int(ordinals.ordinal(of: values[row]))
                if ordinal == allowed.count {
                    let id = values[row]
                    allowed.append(filter.allowed.contains(id == 0 ? nil : table.texts[id]))
                }
                passes[row] = allowed[ordinal]
            }
        }
        // Each row's values of the grouped columns, numbered per column, make its group's key.
        let keys = GroupKeys(columns: key.groupBy.compactMap(column), rows: passes)
        var groupOfKey = keys.makeIndex()
        var groupOfRow = [Int32](repeating: -1, count: table.count)
        for row in passes.indices where passes[row] {
            let group = groupOfKey.group(of: keys, row: row, next: Int32(groupKeys.count))
            if group == groupKeys.count { groupKeys.append(keys.valueIDs(row: row).map { $0 == 0 ? nil : table.texts[$0] }) }
            groupOfRow[row] = group
        }
        groupOfSeries = PackedGroups(count: denseCount, groupCount: groupKeys.count, ids: table.ids, groups: groupOfRow)
        for (id, group) in zip(table.ids, groupOfRow) where id < 0 || id >= denseCount { groupOfLargeSeries[id] = group }
        if !filters.isEmpty || !requiredColumns.isEmpty {
            counted = SeriesSelection(zip(table.ids, groupOfRow).lazy.filter { $0.1 >= 0 }.map(\.0))
        }
    }

    /// About how many bytes the grouping holds.
    var bytes: Int {
        groupOfSeries.bytes + groupOfLargeSeries.count * 16 + groupKeys.reduce(0) { $0 + 16 * ($1.count + 1) } + (counted?.bytes ?? 0)
    }

    /// The group `series` counts in, or nil when it is filtered out or unknown.
    func group(ofSeries series: Int64) -> Int32? {
        if series >= 0, series < groupOfSeries.count { return groupOfSeries[id: Int(series)] }
        guard let group = groupOfLargeSeries[series] else { return nil }
        return group < 0 ? nil : group
    }

    /// The series whose group `keeps` (by group index): O(series).
    func series(inGroups keeps: [Bool]) -> SeriesSelection {
        var ids: [Int64] = []
        for id in 0..<groupOfSeries.count {
            if let group = groupOfSeries[id: id], keeps[Int(group)] { ids.append(Int64(id)) }
        }
        for (id, group) in groupOfLargeSeries where group >= 0 && keeps[Int(group)] { ids.append(id) }
        return SeriesSelection(ids)
    }
}
