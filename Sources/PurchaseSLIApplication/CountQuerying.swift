public import PurchaseSLIAnalysis
public import PurchaseSLICore
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
    public func events(_ query: CountQuery) async throws -> CountAnswer {
        let store = store
        // Grouping and filling a large answer takes CPU for a while: on the compute pool.
        return try await onComputePool {
            query.isAboutErrors ? .errors(try await store.errorCounts(query)) : .outcomes(try await store.counts(query))
        }
    }

    /// The stores' charges and refunds `query` counts, grants judged by `rule`: the stores' record alone,
    /// read without a thread waiting.
    public func charges(_ query: ChargeCountQuery, rule: SLOPolicy.ReconciliationRule) async throws -> [ChargeCounts.Row] {
        try await store.chargeCounts(query, rule: rule)
    }
}

/// What ``CountQuerying/events(_:)`` answers: the events' outcome counts per row, or the events per error
/// description when the query is about them.
public enum CountAnswer: Sendable {
    /// Outcome counts, a row per time step and group.
    case outcomes([CountRow])
    /// Events per error description, a row per time step and group.
    case errors([ErrorCountRow])
}
