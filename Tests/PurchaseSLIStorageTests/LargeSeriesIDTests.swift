import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// The in-memory store with every odd series id and every odd value id moved past 2^40, as a damaged or
/// foreign database may number them: the query engine maps such ids through dictionaries instead of its
/// dense tables.
private struct RenumberedStore: BucketForwarding {
    let base: any BucketStore
    static let offset: Int64 = 1 << 40

    static func renumbered(_ id: Int64) -> Int64 { id % 2 == 1 ? id + offset : id }

    func seriesTable(_ dimensions: [EventDimension]) async throws -> SeriesTable {
        let table = try await base.seriesTable(dimensions)
        return SeriesTable(
            ids: table.ids.map(Self.renumbered), columns: table.columns.map { $0.map(Self.renumbered) },
            texts: Dictionary(uniqueKeysWithValues: table.texts.map { (Self.renumbered($0.key), $0.value) }))
    }

    func scanCounts(_ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesCounts]) throws -> Void) async throws {
        try await base.scanCounts(segments, selection: nil) { time, entries in
            try body(
                time,
                entries.map { SeriesCounts(series: Self.renumbered($0.series), counts: $0.counts) }.filter { selection?.contains($0.series) ?? true })
        }
    }

    func scanErrors(_ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesErrorCount]) throws -> Void) async throws {
        try await base.scanErrors(segments, selection: nil) { time, entries in
            try body(
                time,
                entries.map {
                    SeriesErrorCount(series: Self.renumbered($0.series), result: $0.result, description: $0.description, events: $0.events)
                }
                .filter { selection?.contains($0.series) ?? true })
        }
    }

    func lateArrivals(fromSeconds: Int64, toSeconds: Int64) async throws -> [LateArrivalCount] {
        try await base.lateArrivals(fromSeconds: fromSeconds, toSeconds: toSeconds).map {
            LateArrivalCount(hour: $0.hour, series: Self.renumbered($0.series), events: $0.events)
        }
    }
}

@Suite struct LargeSeriesIDTests {
    /// Several queries answered together (one scan fanned out to each), with and without filters, as rows
    /// and as series: the same answers whether the series' ids are small or past the dense tables.
    @Test func queriesAnswerAlikeWhateverTheSeriesIDs() async throws {
        let base = InMemoryBucketStore()
        _ = try await base.record(mixedEvents(count: 600), receivedAtMillis: receivedAt)
        let renumbered = RenumberedStore(base: base)
        await #expect(try renumbered.series([]).contains { $0.id > RenumberedStore.offset })
        let (from, to) = (seconds("2026-11-14T07:00:00Z"), seconds("2026-11-14T15:00:00Z"))
        let queries = [
            CountQuery(fromSeconds: from, toSeconds: to, step: TimeStep(seconds: 3600), groupBy: [.actionType]),
            CountQuery(fromSeconds: from, toSeconds: to, step: TimeStep(seconds: 3600), groupBy: [.productID], filters: [.actionType: ["purchase"]]),
            CountQuery(fromSeconds: from, toSeconds: to, step: TimeStep(seconds: 3600), groupBy: [.appVersion, .planID]),
            // Every series dimension: more keys than a grouping numbers through a table (a dictionary then).
            CountQuery(
                fromSeconds: from, toSeconds: to, step: TimeStep(seconds: 3600), groupBy: EventDimension.seriesDimensions,
                filters: [.offerID: [nil, "intro"]]),
        ]
        let rows = try await renumbered.counts(queries)
        await #expect(rows == (try base.counts(queries)))
        #expect(rows.allSatisfy { !$0.isEmpty })
        await #expect(try renumbered.series(queries) == (try base.series(queries)))
        let errors = CountQuery(fromSeconds: from, toSeconds: to, groupBy: [.errorDescription], filters: [.actionType: ["purchase"]])
        await #expect(try renumbered.errorCounts(errors) == (try base.errorCounts(errors)))
    }

    /// A grouping by five dimensions of 64 distinct values each has more possible keys than a table holds
    /// (it finds groups through a dictionary then): each series is still its own group, under its own
    /// values, with small ids and past the dense tables alike.
    @Test func groupingByManyDistinctValuesKeepsEachSeriesApart() async throws {
        let base = InMemoryBucketStore()
        let events = (0..<64).map { index in
            var made = event(
                "w\(index)", at: "2026-11-14T08:\(String(format: "%02d", index % 60)):00Z", product: "p\(index)", plan: "plan-\(index)",
                result: index % 2 == 0 ? .success : .failure, version: "1.\(index)")
            made.offerID = "offer-\(index)"
            made.variant = "v\(index)"
            return made
        }
        _ = try await base.record(events, receivedAtMillis: receivedAt)
        let query = CountQuery(
            fromSeconds: seconds("2026-11-14T08:00:00Z"), toSeconds: seconds("2026-11-14T09:00:00Z"),
            groupBy: [.productID, .planID, .appVersion, .offerID, .variant])
        let expected = Set(events.map { [$0.productID, $0.planID, $0.appVersion, $0.offerID, $0.variant] })
        for store in [base, RenumberedStore(base: base)] as [any BucketStore] {
            let rows = try await store.counts(query)
            #expect(rows.count == 64)
            #expect(Set(rows.map(\.key)) == expected)
            #expect(rows.allSatisfy { $0.counts.success + $0.counts.failure == 1 })
            #expect(rows.filter { $0.counts.success == 1 }.count == 32)
        }
    }
}
