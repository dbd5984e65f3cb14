public import PurchaseSLICore
import Synchronization

/// Minute series kept between reads whose ranges move forward, as `serve`'s evaluation reads its rules'
/// windows each minute: the answers of the last read and the store's mark before it
/// (``BucketStore/bucketChanges(since:)``), so that the next read of the same queries takes from them the
/// minutes no write has touched since and reads from the store only the rest: the minutes after them,
/// those written to since (late events), those before them, and the groups a filter lets in that it did not
/// before. The answers are those of reading everything again (``CountSeries/merging(_:startSeconds:stepSeconds:stepCount:)``).
/// A store that keeps no record of its writes is read in full each time, and every store every
/// ``readsBetweenFullReads`` reads: a write the record missed (a node of an older version still writing to a
/// shared database, a hand-made change) is then counted within that many reads rather than while the
/// minute stays in the windows. Hold one per store.
public final class KeptMinuteSeries: Sendable {
    /// The answers of the last read, by query, the store's mark before it, and the reads since everything
    /// was read.
    private let kept = Mutex<(mark: Int64?, answers: [(query: CountQuery, series: CountSeries)], reads: Int)>((nil, [], 0))
    /// How many reads take from what is kept before one reads everything again.
    public let readsBetweenFullReads: Int

    /// Nothing kept yet; everything read again every `readsBetweenFullReads` reads (`serve`'s hour at a
    /// round a minute).
    public init(readsBetweenFullReads: Int = 60) {
        self.readsBetweenFullReads = readsBetweenFullReads
    }

    /// Each query as a series (``BucketQueryEngine/series(_:)``), read from `store` where what is kept
    /// does not answer it. Queries of another step than a minute, or off whole minutes, are read in full.
    public func series(_ queries: [CountQuery], from store: any BucketStore) async throws -> [CountSeries] {
        let (mark, answers, keptReads) = kept.withLock { ($0.mark, $0.answers, $0.reads) }
        let fullRead = mark == nil || keptReads >= readsBetweenFullReads
        // Asked without a mark, a store gives one and no spans: everything is read.
        let changes = try await store.bucketChanges(since: fullRead ? nil : mark)
        var reads: [CountQuery] = []
        var plans: [Plan] = []
        for query in queries {
            let kept = answers.lazy.compactMap { Reuse(of: $0.series, readFor: $0.query, in: query, changes: changes) }.first
            var plan = Plan(query: query, reuse: kept)
            for read in plan.reads {
                plan.readIndexes.append(reads.count)
                reads.append(read)
            }
            plans.append(plan)
        }
        let read = try await store.series(reads)
        let series = plans.map { plan in plan.answer(from: plan.readIndexes.map { read[$0] }) }
        if changes.mark != nil {
            kept.withLock { $0 = (changes.mark, zip(queries, series).map { ($0, $1) }, fullRead ? 0 : keptReads + 1) }
        }
        return series
    }

    /// What of a kept answer serves a query: its groups that the query's filters let in, over the
    /// minutes of both ranges that no write has touched since it was read.
    private struct Reuse {
        /// The kept answer.
        let series: CountSeries
        /// The minutes taken from it.
        let span: Range<Int64>
        /// Per grouped dimension whose filter differs: its place in a group's key, and the values the
        /// query lets in (the kept groups of other values are left out).
        let narrowing: [(index: Int, allowed: Set<String?>)]
        /// The values of a grouped dimension that the query lets in and the kept read did not: read over
        /// ``span`` apart (at most one dimension, or a group could be read twice).
        let widening: [(dimension: EventDimension, values: Set<String?>)]

        /// Nil when nothing of `series` (read for `kept`) serves `query`.
        init?(of series: CountSeries, readFor kept: CountQuery, in query: CountQuery, changes: BucketChanges) {
            guard Plan.isMinuteAligned(query), Plan.isMinuteAligned(kept), kept.groupBy == query.groupBy,
                kept.requiredValues == query.requiredValues
            else { return nil }
            var narrowing: [(index: Int, allowed: Set<String?>)] = []
            var widening: [(dimension: EventDimension, values: Set<String?>)] = []
            for dimension in Set(kept.filters.keys).union(query.filters.keys) where kept.filters[dimension] != query.filters[dimension] {
                // A group's values of the dimension tell which filter lets it in: only a grouped dimension's.
                guard let index = query.groupBy.firstIndex(of: dimension), let allowed = query.filters[dimension] else { return nil }
                narrowing.append((index, allowed))
                if let before = kept.filters[dimension], !allowed.isSubset(of: before) {
                    widening.append((dimension, allowed.subtracting(before)))
                }
            }
            guard widening.count <= 1 else { return nil }
            // The minutes both read, up to the first a write has touched since.
            let (from, to) = (max(kept.fromSeconds, query.fromSeconds), min(kept.toSeconds, query.toSeconds))
            guard from < to else { return nil }
            let span = from..<(changes.earliestChange(within: from..<to) ?? to)
            guard !span.isEmpty else { return nil }
            (self.series, self.span, self.narrowing, self.widening) = (series, span, narrowing, widening)
        }
    }

    /// How one query is answered: what is read for it, and what of a kept answer it takes.
    private struct Plan {
        let query: CountQuery
        let reuse: Reuse?
        /// The positions of ``reads`` among the reads of every query.
        var readIndexes: [Int] = []

        init(query: CountQuery, reuse: Reuse?) {
            (self.query, self.reuse) = (query, reuse)
        }

        static func isMinuteAligned(_ query: CountQuery) -> Bool {
            query.step?.seconds == .secondsPerMinute && query.fromSeconds % .secondsPerMinute == 0
                && query.toSeconds % .secondsPerMinute == 0 && query.maximumRows == nil
        }

        /// The query's minutes before and after what is kept, and the kept minutes of the groups a filter
        /// newly lets in; the whole query without anything kept.
        var reads: [CountQuery] {
            guard let reuse else { return [query] }
            var reads: [CountQuery] = []
            if query.fromSeconds < reuse.span.lowerBound { reads.append(narrowed(to: query.fromSeconds..<reuse.span.lowerBound)) }
            if reuse.span.upperBound < query.toSeconds { reads.append(narrowed(to: reuse.span.upperBound..<query.toSeconds)) }
            for (dimension, values) in reuse.widening {
                var added = narrowed(to: reuse.span)
                added.filters[dimension] = values
                reads.append(added)
            }
            return reads
        }

        private func narrowed(to span: Range<Int64>) -> CountQuery {
            var read = query
            (read.fromSeconds, read.toSeconds) = (span.lowerBound, span.upperBound)
            return read
        }

        /// The answer from `read`, the answers of ``reads`` in order.
        func answer(from read: [CountSeries]) -> CountSeries {
            guard let reuse else { return read[0] }
            let stepCount = Int((query.toSeconds - query.fromSeconds) / .secondsPerMinute)
            let narrowing = reuse.narrowing
            var parts = [
                CountSeries.Part(reuse.series, from: reuse.span.lowerBound, to: reuse.span.upperBound) { key in
                    narrowing.allSatisfy { $0.allowed.contains(key[$0.index]) }
                }
            ]
            for (series, query) in zip(read, reads) { parts.append(CountSeries.Part(series, from: query.fromSeconds, to: query.toSeconds)) }
            return CountSeries.merging(parts, startSeconds: query.fromSeconds, stepSeconds: .secondsPerMinute, stepCount: stepCount)
        }
    }
}
