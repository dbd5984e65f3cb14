import Foundation
import PurchaseSLICore
import PurchaseSLIStorage

/// Seconds since the epoch of an RFC 3339 time.
func seconds(_ text: String) -> Int64 { RFC3339.parseMillis(text)! / 1000 }

/// An event with sensible defaults; tests override what they examine.
func event(
    _ id: String, at time: String, product: String = "coins_100", plan: String? = "coins-small",
    action: ActionType = .purchase, result: ResultType = .success, status: Int? = nil, version: String? = "4.11.0",
    error: String? = nil, app: String? = nil
) -> PurchaseEvent {
    PurchaseEvent(
        eventID: id, timestampMillis: RFC3339.parseMillis(time)!, productID: product, planID: plan, actionType: action,
        resultType: result, statusCode: status, appVersion: version, errorDescription: error, app: app)
}

let receivedAt = RFC3339.parseMillis("2026-11-21T00:00:00Z")!

/// A test store around another: every call goes to `base` unchanged unless the store implements it itself
/// (a renumbering, a count of what is scanned).
protocol BucketForwarding: BucketStore {
    var base: any BucketStore { get }
}

extension BucketForwarding {
    func record(_ batches: [PreparedEvents], receivedAtMillis: Int64) async throws -> RecordOutcome {
        try await base.record(batches, receivedAtMillis: receivedAtMillis)
    }
    func seriesTable(_ dimensions: [EventDimension]) async throws -> SeriesTable { try await base.seriesTable(dimensions) }
    func scanCounts(_ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesCounts]) throws -> Void) async throws {
        try await base.scanCounts(segments, selection: selection, body)
    }
    func scanErrors(_ segments: [BucketSegment], selection: SeriesSelection?, _ body: (Int64, [SeriesErrorCount]) throws -> Void) async throws {
        try await base.scanErrors(segments, selection: selection, body)
    }
    func lateArrivals(fromSeconds: Int64, toSeconds: Int64) async throws -> [LateArrivalCount] {
        try await base.lateArrivals(fromSeconds: fromSeconds, toSeconds: toSeconds)
    }
    func overflow(fromDay: Int64, toDay: Int64) async throws -> [OverflowCount] { try await base.overflow(fromDay: fromDay, toDay: toDay) }
    func prices() async throws -> [ProductPrice] { try await base.prices() }
    func checkWritable() async throws { try await base.checkWritable() }
    func prune(nowMillis: Int64) async throws -> DedupMemory { try await base.prune(nowMillis: nowMillis) }
    func bucketChanges(since mark: Int64?) async throws -> BucketChanges { try await base.bucketChanges(since: mark) }
}
