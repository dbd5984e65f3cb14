import PurchaseSLICore

/// Sums bucket entries into (time step, group) cells, one time step at a time: for rows, a dense array of
/// groups per step read; for a series, per group the steps it has entries in (what the answer is, so
/// nothing is held for an empty step nor copied at the end).
struct CountAccumulator {
    let stepSeconds: Int64?
    let origin: Int64
    let groupCount: Int
    /// For rows: the cells of each time step read, by step.
    private var slots: [Int64: [OutcomeCounts]] = [:]
    /// Whether it sums a series (else rows).
    private var isSeries = false
    /// For a series: per group, the counts of its steps with entries.
    private var columns: [StepCounts] = []
    private var stepCount = 0
    /// The step being read, and for rows its cells.
    private var currentSlot: Int64 = 0
    private var currentCells: [OutcomeCounts] = []
    /// For a series: whether each step has been read (for ``rowCount``).
    private var stepsRead: [Bool] = []
    /// The rows the answer may hold so far: a cell per group in each time step read.
    private(set) var rowCount = 0

    /// An accumulator of rows: time steps as read.
    init(stepSeconds: Int64?, origin: Int64, groupCount: Int) {
        self.stepSeconds = stepSeconds
        self.origin = origin
        self.groupCount = groupCount
    }

    /// An accumulator of `query`'s series (it has a step): the steps from the one holding its start to
    /// the one holding its end.
    init(series query: CountQuery, origin: Int64, groupCount: Int) {
        let step = query.step?.seconds ?? .secondsPerMinute
        self.init(stepSeconds: step, origin: origin, groupCount: groupCount)
        stepCount = Int((Resolution.minute.bucketStart(query.toSeconds + 59) - origin + step - 1) / step)
        isSeries = true
        columns = Array(repeating: StepCounts(), count: groupCount)
        stepsRead = Array(repeating: false, count: stepCount)
    }

    private func slot(of time: Int64) -> Int64 {
        stepSeconds.map { (time - origin) / $0 } ?? 0
    }

    /// Starts adding the entries of a bucket at `time`.
    mutating func beginStep(at time: Int64) {
        currentSlot = slot(of: time)
        if isSeries {
            if currentSlot >= 0 && currentSlot < stepCount && !stepsRead[Int(currentSlot)] {
                stepsRead[Int(currentSlot)] = true
                rowCount += groupCount
            }
        } else if let cells = slots.removeValue(forKey: currentSlot) {
            currentCells = cells
        } else {
            rowCount += groupCount
            currentCells = Array(repeating: OutcomeCounts(), count: groupCount)
        }
    }

    /// Adds an entry's counts to `group` in the step begun.
    mutating func add(_ counts: OutcomeCounts, to group: Int32) {
        guard isSeries else {
            currentCells[Int(group)] += counts
            return
        }
        guard currentSlot >= 0 && currentSlot < stepCount else { return }
        // The group's steps so far, over the steps read so far (in time order), say how many it will have.
        let (slot, steps) = (Int(currentSlot), stepCount)
        columns[Int(group)].add(counts, at: Int32(currentSlot)) { held in min(steps, (held + 1) * steps / (slot + 1) * 11 / 10 + 8) }
    }

    /// Ends the step begun.
    mutating func endStep() {
        guard !isSeries else { return }
        slots[currentSlot] = currentCells
        currentCells = []
    }

    /// The answer rows, sorted by time and then by key; one row per result type when grouped by it.
    func rows(grouping: SeriesGrouping, query: CountQuery) -> [CountRow] {
        // Keys are sorted once per group, then rows come out slot by slot in that order: O(cells + groups
        // log groups) rather than sorting every row.
        let keyTexts = grouping.groupKeys
        let groupOrder = keyTexts.indices.sorted { CountSeries.keyPrecedes(keyTexts[$0], keyTexts[$1]) }
        var rows: [CountRow] = []
        // Sized first (a row per cell with events; by result type, at least that): months of hours are
        // written once rather than copied as the answer grows.
        rows.reserveCapacity(slots.values.reduce(0) { total, cells in total + cells.reduce(0) { $0 + ($1.isEmpty ? 0 : 1) } })
        var slotRows: [CountRow] = []
        for slot in slots.keys.sorted() {
            let cells = slots[slot]!
            let time = stepSeconds.map { origin + slot * $0 }
            slotRows.removeAll(keepingCapacity: true)
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
            if query.groupsByResult { slotRows.sort { CountSeries.keyPrecedes($0.key, $1.key) } }
            rows.append(contentsOf: slotRows)
        }
        return rows
    }

    /// The sums as series from the step holding `query.fromSeconds` to the one holding its end: groups in
    /// key order, those without any event left out (the series puts each group's steps in order). Needs an
    /// accumulator made for `query`'s series.
    func series(grouping: SeriesGrouping, query: CountQuery) -> CountSeries {
        let keyTexts = grouping.groupKeys
        var kept = columns
        if grouping.results.count < ResultType.allCases.count {
            for group in kept.indices { kept[group] = kept[group].mapCounts { Self.keeping(grouping.results, of: $0) } }
        }
        let order = keyTexts.indices.filter { !kept[$0].isEmpty }.sorted { CountSeries.keyPrecedes(keyTexts[$0], keyTexts[$1]) }
        return CountSeries(
            startSeconds: origin, stepSeconds: stepSeconds ?? .secondsPerMinute, stepCount: stepCount, keys: order.map { keyTexts[$0] },
            columns: order.map { kept[$0] })
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
