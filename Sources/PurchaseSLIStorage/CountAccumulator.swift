import PurchaseSLICore

/// Sums bucket entries into (time step, group) cells: one dense array of groups per time step.
struct CountAccumulator {
    let stepSeconds: Int64?
    let origin: Int64
    let groupCount: Int
    private var slots: [Int64: [OutcomeCounts]] = [:]
    /// The rows the answer may hold so far: a cell per group in each time step read.
    private(set) var rowCount = 0

    init(stepSeconds: Int64?, origin: Int64, groupCount: Int) {
        self.stepSeconds = stepSeconds
        self.origin = origin
        self.groupCount = groupCount
    }

    private func slot(of time: Int64) -> Int64 {
        stepSeconds.map { (time - origin) / $0 } ?? 0
    }

    /// Removes and returns the cells of the time step holding `time`, to be added to and put back.
    mutating func takeCells(at time: Int64) -> [OutcomeCounts] {
        if let cells = slots.removeValue(forKey: slot(of: time)) { return cells }
        rowCount += groupCount
        return Array(repeating: OutcomeCounts(), count: groupCount)
    }

    mutating func putCells(_ cells: [OutcomeCounts], at time: Int64) {
        slots[slot(of: time)] = cells
    }

    /// The answer rows, sorted by time and then by key; one row per result type when grouped by it.
    func rows(grouping: SeriesGrouping, query: CountQuery) -> [CountRow] {
        // Keys are sorted once per group, then rows come out slot by slot in that order: O(cells + groups
        // log groups) rather than sorting every row.
        let keyTexts = grouping.groupKeys
        let groupOrder = keyTexts.indices.sorted { Self.precedes(keyTexts[$0], keyTexts[$1]) }
        var rows: [CountRow] = []
        for slot in slots.keys.sorted() {
            let cells = slots[slot]!
            let time = stepSeconds.map { origin + slot * $0 }
            var slotRows: [CountRow] = []
            for group in groupOrder {
                let filtered = Self.keeping(grouping.results, of: cells[group])
                if query.groupsByResult {
                    for result in ResultType.allCases where filtered[result] > 0 {
                        var single = OutcomeCounts()
                        single[result] = filtered[result]
                        slotRows.append(CountRow(timeSeconds: time, key: Self.key(query.groupBy, keyTexts[group], result), counts: single))
                    }
                } else if !filtered.isEmpty {
                    slotRows.append(CountRow(timeSeconds: time, key: keyTexts[group], counts: filtered))
                }
            }
            if query.groupsByResult { slotRows.sort { Self.precedes($0.key, $1.key) } }
            rows += slotRows
        }
        return rows
    }

    /// The sums as dense series from the step holding `query.fromSeconds` to the one holding its end:
    /// groups in key order, those without any event left out.
    func series(grouping: SeriesGrouping, query: CountQuery) -> CountSeries {
        let step = stepSeconds ?? 60
        let stepCount = Int((Resolution.minute.bucketStart(query.toSeconds + 59) - origin + step - 1) / step)
        let keyTexts = grouping.groupKeys
        var counts = Array(repeating: [OutcomeCounts](), count: keyTexts.count)
        var seen = Array(repeating: false, count: keyTexts.count)
        for (slot, cells) in slots where slot >= 0 && slot < stepCount {
            for group in cells.indices {
                let kept = Self.keeping(grouping.results, of: cells[group])
                guard !kept.isEmpty else { continue }
                if !seen[group] {
                    counts[group] = Array(repeating: OutcomeCounts(), count: stepCount)
                    seen[group] = true
                }
                counts[group][Int(slot)] = kept
            }
        }
        let order = keyTexts.indices.filter { seen[$0] }.sorted { Self.precedes(keyTexts[$0], keyTexts[$1]) }
        return CountSeries(startSeconds: origin, stepSeconds: step, keys: order.map { keyTexts[$0] }, counts: order.map { counts[$0] })
    }

    /// Key order: value by value, absent values first.
    private static func precedes(_ lhs: [String?], _ rhs: [String?]) -> Bool {
        lhs.lexicographicallyPrecedes(rhs) { ($0 ?? "") < ($1 ?? "") || ($0 == nil && $1 != nil) }
    }

    private static func key(_ groupBy: [EventDimension], _ seriesKey: [String?], _ result: ResultType) -> [String?] {
        var values = seriesKey.makeIterator()
        return groupBy.map { $0 == .resultType ? result.rawValue : values.next()! }
    }

    /// Keeps only the result types a filter selects. The 409 and 5xx counters are not split by result,
    /// so under a resultType filter they are left at zero.
    private static func keeping(_ results: Set<ResultType>, of counts: OutcomeCounts) -> OutcomeCounts {
        guard results.count < ResultType.allCases.count else { return counts }
        var kept = OutcomeCounts()
        for result in results { kept[result] = counts[result] }
        return kept
    }
}
