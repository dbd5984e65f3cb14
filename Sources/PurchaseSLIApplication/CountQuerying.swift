public import PurchaseSLIAnalysis
public import PurchaseSLICore
public import PurchaseSLIRendering
public import PurchaseSLIStorage

/// What `purchase-sli query` and `GET /v1/query` answer, for both: the events' outcome counts (or the
/// events per error description) over a range, or the stores' charges and refunds counted per group.
/// Each surface parses its own arguments into the query and renders the answer its own way; nothing else
/// is theirs.
public struct CountQuerying: Sendable {
    private let store: any PurchaseStore

    /// Queries of `store`.
    public init(store: any PurchaseStore) {
        self.store = store
    }

    /// The events' counts answering `query`, or the events per error description when it groups or
    /// filters by them.
    /// - Throws: ``PurchaseSLIStorage/StorageError`` (``PurchaseSLIStorage/StorageError/isInvalidQuery``
    ///   when the answer would have more rows than ``PurchaseSLICore/CountQuery/maximumRows``).
    public func events(_ query: CountQuery) async throws -> QueryOutput {
        let store = store
        // Grouping and filling a large answer takes CPU for a while: on the compute pool.
        return try await onComputePool {
            query.isAboutErrors
                ? QueryOutput(query: query, errorRows: try await store.errorCounts(query))
                : QueryOutput(query: query, rows: try await store.counts(query))
        }
    }

    /// The stores' charges and refunds `query` counts, grants judged by `rule`: the stores' record alone,
    /// read without a thread waiting.
    public func charges(_ query: ChargeCountQuery, rule: SLOPolicy.ReconciliationRule) async throws -> ChargeCountOutput {
        ChargeCountOutput(query: query, rows: try await store.chargeCounts(query, rule: rule))
    }
}
