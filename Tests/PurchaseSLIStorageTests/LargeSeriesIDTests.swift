import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// The in-memory store with every odd series id moved past 2^40, as a damaged or foreign database may
/// number them: the query engine maps such ids through a dictionary instead of its dense tables.
private struct RenumberedStore: BucketStore {
    let base: InMemoryBucketStore
    static let offset: Int64 = 1 << 40

    static func renumbered(_ id: Int64) -> Int64 { id % 2 == 1 ? id + offset : id }

    func record(_ batches: [PreparedEvents], receivedAtMillis: Int64) async throws -> RecordOutcome {
        try await base.record(batches, receivedAtMillis: receivedAtMillis)
    }

    func series(_ dimensions: [EventDimension]) async throws -> [StoredSeries] {
        try await base.series(dimensions).map { StoredSeries(id: Self.renumbered($0.id), values: $0.values) }
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
    func prices() async throws -> [ProductPrice] { try await base.prices() }
    func checkWritable() async throws { try await base.checkWritable() }
    func prune(nowMillis: Int64) async throws -> DedupMemory { try await base.prune(nowMillis: nowMillis) }
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
        ]
        let rows = try await renumbered.counts(queries)
        await #expect(rows == (try base.counts(queries)))
        #expect(rows.allSatisfy { !$0.isEmpty })
        await #expect(try renumbered.series(queries) == (try base.series(queries)))
        let errors = CountQuery(fromSeconds: from, toSeconds: to, groupBy: [.errorDescription], filters: [.actionType: ["purchase"]])
        await #expect(try renumbered.errorCounts(errors) == (try base.errorCounts(errors)))
    }
}
