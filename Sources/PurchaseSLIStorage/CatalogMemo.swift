import PurchaseSLICore
import Synchronization

/// What queries work out of one state of a store's series, kept for the queries after: the groupings (by
/// what a query groups by and filters on other dimensions, ``CatalogGrouping``), and for an app's view (``AppScopedStore``) its narrowed tables and
/// its selection of series. The queries of a page set or an evaluation group one catalog the same way many
/// times (each action's totals, say), and an app's view narrows it for every query: each costs a pass over
/// every series of a large catalog. A store's catalog hands every table of one state of its series the
/// same memo, and a new one once series are added. It keeps what was used last, within ``byteBudget``.
final class CatalogMemo: Sendable {
    /// What is kept.
    private enum Key: Hashable {
        case grouping(CatalogGrouping.Key)
        /// The table of `dimensions` narrowed to the series of `app` (asked of the table of `dimensions + [.app]`).
        case narrowed(dimensions: [EventDimension], app: String)
        /// The series of `app` (asked of the table of `[.app]`).
        case series(app: String)
    }

    private enum Value: Sendable {
        case grouping(CatalogGrouping)
        case table(SeriesTable)
        case selection(SeriesSelection)

        var bytes: Int {
            switch self {
            case .grouping(let grouping): grouping.bytes
            case .table(let table): table.count * 8 + table.columns.reduce(0) { $0 + $1.bytes }
            case .selection(let selection): selection.bytes
            }
        }
    }

    /// What is kept, the one used last at the end, with its size in bytes.
    private let kept = Mutex<[(key: Key, value: Value, bytes: Int)]>([])

    /// How many bytes are kept at most (besides what was used last): a dozen groupings of a million-series
    /// catalog (a byte a series each when they have fewer than 255 groups, ``PackedGroups``) or one app's
    /// tables, everything of a small catalog.
    static let byteBudget = 12 << 20

    /// The grouping of `key`, made by `make` unless it is kept.
    func grouping(for key: CatalogGrouping.Key, make: () -> CatalogGrouping) -> CatalogGrouping {
        guard case .grouping(let grouping) = value(for: .grouping(key), make: { .grouping(make()) }) else { preconditionFailure() }
        return grouping
    }

    /// `table` (of `dimensions + [.app]`) narrowed to `app`'s series.
    func table(_ table: SeriesTable, narrowedTo app: String, dimensions: [EventDimension]) -> SeriesTable {
        let value = value(for: .narrowed(dimensions: dimensions, app: app)) { .table(table.narrowed(to: app, in: dimensions.count)) }
        guard case .table(let narrowed) = value else { preconditionFailure() }
        return narrowed
    }

    /// The series of `app` in `table` (of `[.app]`).
    func series(of app: String, in table: SeriesTable) -> SeriesSelection {
        guard case .selection(let selection) = value(for: .series(app: app), make: { .selection(SeriesSelection(table.ids(where: 0, is: app))) })
        else { preconditionFailure() }
        return selection
    }

    /// The value of `key`, made by `make` unless it is kept. Made outside the lock: two queries that need it
    /// at once may both make it, and either is kept.
    private func value(for key: Key, make: () -> Value) -> Value {
        let known = kept.withLock { kept -> Value? in
            guard let index = kept.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = kept.remove(at: index)
            kept.append(entry)
            return entry.value
        }
        if let known { return known }
        let value = make()
        kept.withLock { kept in
            guard !kept.contains(where: { $0.key == key }) else { return }
            kept.append((key, value, value.bytes))
            var total = kept.reduce(0) { $0 + $1.bytes }
            while kept.count > 1, total - kept.last!.bytes > Self.byteBudget {
                total -= kept.removeFirst().bytes
            }
        }
        return value
    }
}
