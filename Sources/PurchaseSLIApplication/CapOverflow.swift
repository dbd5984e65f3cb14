import PurchaseSLICore
public import PurchaseSLIStorage

/// What the caps counted as `__other__` on the UTC days a page's range touches, for the app it shows
/// (every app's on a page of them all): read from the store's overflow counts, the one home of the figure
/// `ingest`'s summary and `/metrics` count as it happens.
public struct CapOverflow: Sendable, Equatable {
    /// The counts read, by day, dimension and app.
    public var counts: [OverflowCount]

    /// Creates a summary of `counts`.
    public init(counts: [OverflowCount]) {
        self.counts = counts
    }

    /// Whether the caps turned nothing away.
    public var isEmpty: Bool { counts.allSatisfy { $0.events == 0 } }

    /// The events per dimension (`series` for the series cap), by dimension name.
    public var byDimension: [(dimension: String, events: Int64)] {
        Dictionary(counts.map { ($0.dimension, $0.events) }, uniquingKeysWith: +).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Per app whose budget was full ("" for events without an app and for the apps' own cap), its events
    /// per dimension (an event turned away in two dimensions counts in each), the app with the most in one
    /// dimension first.
    public var byApp: [(app: String, byDimension: [(dimension: String, events: Int64)])] {
        Dictionary(grouping: counts, by: \.app).map { app, counts in
            (app, CapOverflow(counts: counts).byDimension)
        }
        .sorted { lhs, rhs in
            let (left, right) = (lhs.byDimension.map(\.events).max() ?? 0, rhs.byDimension.map(\.events).max() ?? 0)
            return left != right ? left > right : lhs.app < rhs.app
        }
    }
}

extension CapOverflow {
    /// What the caps turned away on the UTC days `[fromSeconds, toSeconds)` touches, as `store` (an app's
    /// view, or every app's) keeps it.
    public static func read(from store: any BucketStore, fromSeconds: Int64, toSeconds: Int64) async throws -> CapOverflow {
        let first = fromSeconds.floorDividedBy(.secondsPerDay).quotient
        let last = max(first, (toSeconds - 1).floorDividedBy(.secondsPerDay).quotient)
        return CapOverflow(counts: try await store.overflow(fromDay: first, toDay: last + 1))
    }
}

extension DashboardContext {
    /// What the caps turned away on the days of the page's range, for the app shown.
    func capOverflow() async throws -> CapOverflow {
        try await CapOverflow.read(from: store, fromSeconds: fromSeconds, toSeconds: atSeconds)
    }
}
