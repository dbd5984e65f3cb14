import PurchaseSLICore

/// Maps each stored series to the group it counts in for one query (or to none, when a filter excludes
/// it): the catalog's grouping of what the query groups by (``CatalogGrouping``, shared by queries that
/// differ only in their filters on grouped dimensions), of whose groups those filters pick some.
struct SeriesGrouping: Sendable {
    /// The catalog's grouping.
    private let catalog: CatalogGrouping
    /// Per group of the catalog's grouping: the query's group, or -1 when a filter leaves it out; nil when
    /// the query takes every group as it is.
    private let groupOfCatalogGroup: [Int32]?
    /// Per group: the values of the grouping dimensions (resultType and errorDescription excluded).
    let groupKeys: [[String?]]
    /// The result types that pass the filters.
    let results: Set<ResultType>

    /// The groupings of several queries, from one read of the stored series (the catalog groupings the
    /// table's memo keeps are not made again).
    static func make(for queries: [CountQuery], from store: any BucketStore) async throws -> [SeriesGrouping] {
        let needed = EventDimension.seriesDimensions.filter { dimension in
            queries.contains { $0.groupBy.contains(dimension) || $0.filters[dimension] != nil || $0.requiredValues.contains(dimension) }
        }
        let table = try await store.seriesTable(needed)
        // Sized once for the dense ids rather than grown a series at a time.
        var denseCount: Int?
        return queries.map { query in
            let key = CatalogGrouping.Key(query)
            let catalog = table.memo.grouping(for: key) {
                let count = denseCount ?? Int(max(0, min(table.ids.max().map { $0 + 1 } ?? 0, CatalogGrouping.denseLimit)))
                denseCount = count
                return CatalogGrouping(table, denseCount: count, dimensions: needed, key: key)
            }
            return SeriesGrouping(catalog, query: query)
        }
    }

    /// The groups of `catalog` that `query`'s filters on grouped dimensions let in. O(groups).
    private init(_ catalog: CatalogGrouping, query: CountQuery) {
        self.catalog = catalog
        results = Set(ResultType.allCases.filter { query.filters[.resultType]?.contains($0.rawValue) ?? true })
        // Each picking filter's place in a group's key (which holds the grouped series dimensions in order).
        let keyDimensions = query.groupBy.filter { $0.seriesIndex != nil }
        let picks = query.filters.compactMap { dimension, allowed in
            CatalogGrouping.Key.picksGroups(dimension, of: query) ? (index: keyDimensions.firstIndex(of: dimension)!, allowed: allowed) : nil
        }
        guard !picks.isEmpty else {
            (groupOfCatalogGroup, groupKeys) = (nil, catalog.groupKeys)
            return
        }
        var groupOf = [Int32](repeating: -1, count: catalog.groupKeys.count)
        var keys: [[String?]] = []
        for (group, key) in catalog.groupKeys.enumerated() where picks.allSatisfy({ $0.allowed.contains(key[$0.index]) }) {
            groupOf[group] = Int32(keys.count)
            keys.append(key)
        }
        (groupOfCatalogGroup, groupKeys) = (groupOf, keys)
    }

    /// The series any of `groupings` counts, or nil when one of them counts every series.
    static func selection(of groupings: [SeriesGrouping]) -> SeriesSelection? {
        guard groupings.allSatisfy({ $0.catalog.counted != nil || $0.groupOfCatalogGroup != nil }) else { return nil }
        return SeriesSelection(union: groupings.map(\.counted))
    }

    /// The series counted (needs a filter or a required value).
    private var counted: SeriesSelection {
        guard let groupOfCatalogGroup else { return catalog.counted! }
        return catalog.series(inGroups: groupOfCatalogGroup.map { $0 >= 0 })
    }

    /// The group `series` counts in, or nil when it is filtered out or unknown.
    func group(ofSeries series: Int64) -> Int32? {
        guard let group = catalog.group(ofSeries: series) else { return nil }
        guard let groupOfCatalogGroup else { return group }
        let picked = groupOfCatalogGroup[Int(group)]
        return picked < 0 ? nil : picked
    }
}
