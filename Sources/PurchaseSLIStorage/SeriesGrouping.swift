import PurchaseSLICore

/// Maps each stored series to the group it counts in for one query (or to none, when a filter excludes it).
struct SeriesGrouping: Sendable {
    /// Per series id: the group index, or none when filtered out (ids up to ``denseLimit``).
    private let groupOfSeries: PackedGroups
    /// The groups of series with larger ids (which a damaged or foreign database may hold).
    private var groupOfLargeSeries: [Int64: Int32] = [:]
    /// The series counted, when a filter or a required value leaves some out.
    private var counted: SeriesSelection?
    /// Per group: the values of the grouping dimensions (resultType and errorDescription excluded).
    private(set) var groupKeys: [[String?]] = []
    /// Whether a filter or a required value of a series dimension leaves series out.
    private(set) var filtersSeries = false
    /// The result types that pass the filters.
    let results: Set<ResultType>

    /// Series ids below this are mapped through an array, larger ones through a dictionary.
    private static let denseLimit: Int64 = 1 << 24

    /// The groupings of several queries, from one read of the stored series (those the table's memo keeps
    /// are not made again).
    static func make(for queries: [CountQuery], from store: any BucketStore) async throws -> [SeriesGrouping] {
        let needed = EventDimension.seriesDimensions.filter { dimension in
            queries.contains { $0.groupBy.contains(dimension) || $0.filters[dimension] != nil || $0.requiredValues.contains(dimension) }
        }
        let table = try await store.seriesTable(needed)
        // Sized once for the dense ids rather than grown a series at a time.
        var denseCount: Int?
        return queries.map { query in
            table.memo.grouping(for: CatalogMemo.GroupingKey(query)) {
                let count = denseCount ?? Int(max(0, min(table.ids.max().map { $0 + 1 } ?? 0, Self.denseLimit)))
                denseCount = count
                return SeriesGrouping(table, denseCount: count, dimensions: needed, query: query)
            }
        }
    }

    /// The series any of `groupings` counts, or nil when one of them counts every series.
    static func selection(of groupings: [SeriesGrouping]) -> SeriesSelection? {
        let counted = groupings.compactMap(\.counted)
        return counted.count == groupings.count ? SeriesSelection(union: counted) : nil
    }

    /// The grouping of `table`'s series (columns of `dimensions`; ids below `denseCount` mapped through an
    /// array) for `query`: series with equal value ids in the grouped columns share a group, a filter is
    /// decided once per value id, and each group's text is read once. O(series × columns), by array lookups.
    private init(_ table: SeriesTable, denseCount: Int, dimensions: [EventDimension], query: CountQuery) {
        results = Set(ResultType.allCases.filter { query.filters[.resultType]?.contains($0.rawValue) ?? true })
        let column = { (dimension: EventDimension) in dimension.seriesIndex.map { _ in table.columns[dimensions.firstIndex(of: dimension)!] } }
        let requiredColumns = query.requiredValues.compactMap(column)
        let filters = query.filters.compactMap { dimension, allowed in column(dimension).map { (values: $0, allowed: allowed) } }
        filtersSeries = !filters.isEmpty || !requiredColumns.isEmpty
        // Whether each row passes the filters and required values.
        var passes = [Bool](repeating: true, count: table.count)
        for required in requiredColumns {
            for row in passes.indices where required[row] == 0 { passes[row] = false }
        }
        for filter in filters {
            var ordinals = ValueOrdinals()
            var allowed: [Bool] = []
            for row in passes.indices where passes[row] {
                let ordinal = Int(ordinals.ordinal(of: filter.values[row]))
                if ordinal == allowed.count {
                    let id = filter.values[row]
                    allowed.append(filter.allowed.contains(id == 0 ? nil : table.texts[id]))
                }
                passes[row] = allowed[ordinal]
            }
        }
        // Each row's values of the grouped columns, numbered per column, make its group's key.
        let keys = GroupKeys(columns: query.groupBy.compactMap(column), rows: passes)
        var groupOfKey = keys.makeIndex()
        var groupOfRow = [Int32](repeating: -1, count: table.count)
        for row in passes.indices where passes[row] {
            let group = groupOfKey.group(of: keys, row: row, next: Int32(groupKeys.count))
            if group == groupKeys.count { groupKeys.append(keys.valueIDs(row: row).map { $0 == 0 ? nil : table.texts[$0] }) }
            groupOfRow[row] = group
        }
        groupOfSeries = PackedGroups(count: denseCount, groupCount: groupKeys.count, ids: table.ids, groups: groupOfRow)
        for (id, group) in zip(table.ids, groupOfRow) where id < 0 || id >= denseCount { groupOfLargeSeries[id] = group }
        if filtersSeries { counted = SeriesSelection(zip(table.ids, groupOfRow).lazy.filter { $0.1 >= 0 }.map(\.0)) }
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
}
