import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// A filter on a dimension a query groups by picks among the groups of the catalog's grouping (shared by
/// the queries that differ only in such filters) rather than grouping the catalog again: every answer is
/// still what the events say, whichever queries share a scan, with or without a query that reads every
/// series beside them, as rows, series and error counts.
@Suite struct GroupPickingTests {
    private static let (from, to) = (seconds("2026-11-14T08:00:00Z"), seconds("2026-11-14T09:00:00Z"))

    /// Queries grouping alike with different picks, picks beside filters on other dimensions, a pick of
    /// values no series has, of a missing value, under a result filter and with a required value.
    private static let picking: [CountQuery] = [
        CountQuery(fromSeconds: from, toSeconds: to, groupBy: [.actionType, .productID], filters: [.productID: ["p1", "p3", "p99"]]),
        CountQuery(
            fromSeconds: from, toSeconds: to, groupBy: [.actionType, .productID], filters: [.productID: ["p2", "p4"], .actionType: ["purchase"]]),
        CountQuery(fromSeconds: from, toSeconds: to, groupBy: [.productID], filters: [.actionType: ["restore"], .productID: ["p1", "p2"]]),
        CountQuery(
            fromSeconds: from, toSeconds: to, groupBy: [.planID, .appVersion],
            filters: [.planID: [nil, "monthly"], .appVersion: ["1.1"], .resultType: ["failure", "cancel"]]),
        CountQuery(fromSeconds: from, toSeconds: to, groupBy: [.actionType, .planID], filters: [.planID: ["yearly"]], requiredValues: [.planID]),
        CountQuery(fromSeconds: from, toSeconds: to, groupBy: [.productID], filters: [.productID: ["nothing"]]),
    ]

    /// The same grouping without a pick, read beside the picking ones in some scans.
    private static let everything = CountQuery(fromSeconds: from, toSeconds: to, groupBy: [.actionType, .productID])

    @Test(arguments: Backend.all)
    func picksAmongGroupsCountWhatTheEventsSay(backend: Backend) async throws {
        let store = try await backend.store()
        let events = Self.events()
        _ = try await store.record(events, receivedAtMillis: receivedAt)

        // Together (the picking queries alone, then beside one reading every series), and one by one.
        let alone = try await store.counts(Self.picking)
        let beside = try await store.counts(Self.picking + [Self.everything])
        let besideFirst = try await store.counts([Self.everything] + Self.picking)
        let expected = Self.picking.map { Self.rows($0, of: events) }
        for (index, query) in Self.picking.enumerated() {
            let want = Self.cells(expected[index])
            #expect(Self.cells(alone[index]) == want, "\(query.groupBy) \(query.filters), picking queries alone in the scan")
            #expect(Self.cells(beside[index]) == want, "\(query.groupBy) \(query.filters), beside every series")
            #expect(Self.cells(besideFirst[index + 1]) == want, "\(query.groupBy) \(query.filters), after every series")
            #expect(Self.cells(try await store.counts(query)) == want, "\(query.groupBy) \(query.filters), by itself")
        }
        #expect(Self.cells(beside.last!) == Self.cells(Self.rows(Self.everything, of: events)))
        #expect(expected.dropLast().allSatisfy { !$0.isEmpty }, "each pick but the last finds events")

        // As series of 10-minute steps, read together.
        let step = TimeStep(seconds: 600)
        let stepped = Self.picking.map { $0.with(step: step) }
        for (query, series) in zip(stepped, try await store.series(stepped + [Self.everything.with(step: step)]).dropLast()) {
            let rows = Self.rows(query, of: events).sorted { CountSeries.keyPrecedes($0.key, $1.key) }
            #expect(series == CountSeries(rows: rows, startSeconds: Self.from, stepSeconds: 600, stepCount: 6), "\(query.filters)")
        }

        // Error counts under a pick, by product and description.
        var errors = CountQuery(
            fromSeconds: Self.from, toSeconds: Self.to, groupBy: [.productID, .errorDescription], filters: [.productID: ["p1", "p3"]])
        let counted = try await store.errorCounts(errors)
        var expectedErrors: [[String?]: Int64] = [:]
        for event in events where event.errorDescription != nil && ["p1", "p3"].contains(event.productID) {
            expectedErrors[[event.productID, event.errorDescription], default: 0] += 1
        }
        #expect(Dictionary(uniqueKeysWithValues: counted.map { ($0.key, $0.events) }) == expectedErrors)
        errors.filters[.productID] = ["p2"]
        #expect(try await store.errorCounts(errors).allSatisfy { $0.key[0] == "p2" })
    }

    /// Two hundred events of five products, three plans (one none), three versions, two actions and three
    /// results (failures with one of two descriptions), over the hour.
    private static func events() -> [PurchaseEvent] {
        var generator = SeededGenerator(seed: 67)
        return (0..<200).map { index in
            let result = [ResultType.success, .failure, .cancel].randomElement(using: &generator)!
            return PurchaseEvent(
                eventID: "e\(index)", timestampMillis: (from + Int64.random(in: 0..<3600, using: &generator)) * 1000,
                productID: "p\(Int.random(in: 0..<5, using: &generator))", planID: [nil, "monthly", "yearly"].randomElement(using: &generator)!,
                actionType: Bool.random(using: &generator) ? .purchase : .restore, resultType: result,
                appVersion: "1.\(Int.random(in: 0..<3, using: &generator))",
                errorDescription: result == .failure ? ["timeout", "declined"].randomElement(using: &generator)! : nil)
        }
    }

    /// What `query` counts of `events`, by its step and key, summed from the events themselves.
    private static func rows(_ query: CountQuery, of events: [PurchaseEvent]) -> [CountRow] {
        var cells: [CountCell: OutcomeCounts] = [:]
        for event in events {
            let seconds = event.timestampMillis / 1000
            guard seconds >= query.fromSeconds, seconds < query.toSeconds,
                query.filters.allSatisfy({ $0.value.contains(event.value(of: $0.key)) }),
                query.requiredValues.allSatisfy({ event.value(of: $0) != nil })
            else { continue }
            let time = query.step.map { query.fromSeconds + (seconds - query.fromSeconds) / $0.seconds * $0.seconds }
            cells[CountCell(time: time, key: query.groupBy.map { event.value(of: $0) }), default: OutcomeCounts()].add(
                event.resultType, statusCode: nil)
        }
        return cells.map { CountRow(timeSeconds: $0.key.time, key: $0.key.key, counts: $0.value) }.sorted {
            ($0.timeSeconds ?? 0) < ($1.timeSeconds ?? 0)
        }
    }

    private struct CountCell: Hashable {
        let time: Int64?
        let key: [String?]
    }

    /// The rows as cells, to compare regardless of order.
    private static func cells(_ rows: [CountRow]) -> [CountCell: OutcomeCounts] {
        Dictionary(uniqueKeysWithValues: rows.map { (CountCell(time: $0.timeSeconds, key: $0.key), $0.counts) })
    }
}

extension CountQuery {
    /// The query with `step`.
    fileprivate func with(step: TimeStep) -> CountQuery {
        var query = self
        query.step = step
        return query
    }
}
