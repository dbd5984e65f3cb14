import PurchaseSLICore
import Synchronization

/// The groupings already made of one series table, by what a query groups and filters: the queries of a
/// page set or an evaluation group one catalog the same way many times (each action's totals, say), and
/// a grouping of a large catalog costs a pass over every series. A store's catalog hands every table of
/// one state of its series the same memo, and a new one once series are added. It keeps the groupings used
/// last, within ``byteBudget``.
final class SeriesGroupingMemo: Sendable {
    /// What a grouping depends on besides the table.
    struct Key: Hashable {
        let groupBy: [EventDimension]
        let filters: [EventDimension: Set<String?>]
        let requiredValues: Set<EventDimension>

        init(_ query: CountQuery) {
            (groupBy, filters, requiredValues) = (query.groupBy, query.filters, query.requiredValues)
        }
    }

    /// The groupings kept, the one used last at the end, with their sizes in bytes.
    private let kept = Mutex<[(key: Key, grouping: SeriesGrouping, bytes: Int)]>([])

    /// How many bytes of groupings are kept at most (besides the one used last): a handful of a
    /// million-series catalog's (4 bytes a series each), every one of a small catalog's.
    static let byteBudget = 24 << 20

    /// The grouping of `key`, made by `make` unless it is kept. Made outside the lock: two queries that
    /// need it at once may both make it, and either is kept.
    func grouping(for key: Key, make: () -> SeriesGrouping) -> SeriesGrouping {
        let known = kept.withLock { kept -> SeriesGrouping? in
            guard let index = kept.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = kept.remove(at: index)
            kept.append(entry)
            return entry.grouping
        }
        if let known { return known }
        let grouping = make()
        kept.withLock { kept in
            guard !kept.contains(where: { $0.key == key }) else { return }
            kept.append((key, grouping, grouping.bytes))
            var total = kept.reduce(0) { $0 + $1.bytes }
            while kept.count > 1, total - kept.last!.bytes > Self.byteBudget {
                total -= kept.removeFirst().bytes
            }
        }
        return grouping
    }
}
