import PurchaseSLICore

/// Maps each stored series to the group it counts in for one query (or to none, when a filter excludes it).
struct SeriesGrouping {
    /// Per series id: the group index, or -1 when filtered out (ids up to ``denseLimit``).
    private var groupOfSeries: [Int32] = []
    /// The groups of series with larger ids (which a damaged or foreign database may hold).
    private var groupOfLargeSeries: [Int64: Int32] = [:]
    /// Per group: the values of the grouping dimensions (resultType and errorDescription excluded).
    private(set) var groupKeys: [[String?]] = []
    /// Whether a filter or a required value of a series dimension leaves series out.
    private(set) var filtersSeries = false
    /// The result types that pass the filters.
    let results: Set<ResultType>

    /// Series ids below this are mapped through an array, larger ones through a dictionary.
    private static let denseLimit: Int64 = 1 << 24

    /// The groupings of several queries, from one read of the stored series.
    static func make(for queries: [CountQuery], from store: any BucketStore) async throws -> [SeriesGrouping] {
        let needed = EventDimension.seriesDimensions.filter { dimension in
            queries.contains { $0.groupBy.contains(dimension) || $0.filters[dimension] != nil || $0.requiredValues.contains(dimension) }
        }
        let stored = try await store.series(needed)
        return queries.map { SeriesGrouping(stored, dimensions: needed, query: $0) }
    }

    /// The series any of `groupings` counts, or nil when one of them counts every series.
    static func selection(of groupings: [SeriesGrouping]) -> SeriesSelection? {
        guard groupings.allSatisfy(\.filtersSeries) else { return nil }
        var ids: [Int64] = []
        for grouping in groupings {
            for (id, group) in grouping.groupOfSeries.enumerated() where group >= 0 { ids.append(Int64(id)) }
            for (id, group) in grouping.groupOfLargeSeries where group >= 0 { ids.append(id) }
        }
        return SeriesSelection(ids)
    }

    private init(_ stored: [StoredSeries], dimensions: [EventDimension], query: CountQuery) {
        results = Set(ResultType.allCases.filter { query.filters[.resultType]?.contains($0.rawValue) ?? true })
        let position = { (dimension: EventDimension) in dimension.seriesIndex.map { _ in dimensions.firstIndex(of: dimension)! } }
        let keyPositions = query.groupBy.compactMap(position)
        let filterPositions = query.filters.compactMap { dimension, allowed in position(dimension).map { (position: $0, allowed: allowed) } }
        let requiredPositions = query.requiredValues.compactMap(position)
        filtersSeries = !filterPositions.isEmpty || !requiredPositions.isEmpty
        var groupIndex: [[String?]: Int32] = [:]
        for series in stored {
            let passes =
                filterPositions.allSatisfy { $0.allowed.contains(series.values[$0.position]) }
                && requiredPositions.allSatisfy { series.values[$0] != nil }
            let key = keyPositions.map { series.values[$0] }
            var group: Int32 = -1
            if passes, let known = groupIndex[key] {
                group = known
            } else if passes {
                group = Int32(groupKeys.count)
                groupKeys.append(key)
                groupIndex[key] = group
            }
            if series.id < Self.denseLimit {
                if Int(series.id) >= groupOfSeries.count {
                    groupOfSeries.append(contentsOf: repeatElement(-1, count: Int(series.id) + 1 - groupOfSeries.count))
                }
                groupOfSeries[Int(series.id)] = group
            } else {
                groupOfLargeSeries[series.id] = group
            }
        }
    }

    /// How many series ids are mapped through the dense array (from 0).
    var denseSeriesCount: Int { groupOfSeries.count }

    /// The group `series` counts in, or nil when it is filtered out or unknown.
    func group(ofSeries series: Int64) -> Int32? {
        let group: Int32
        if series >= 0, series < groupOfSeries.count {
            group = groupOfSeries[Int(series)]
        } else {
            guard let large = groupOfLargeSeries[series] else { return nil }
            group = large
        }
        return group < 0 ? nil : group
    }
}
