public import PurchaseSLICore

/// What alert evaluation reads: the minute series of each action, and of each value of each slice
/// dimension within each action, over one time range.
public struct AlertInputs: Sendable {
    /// The first minute covered by the slices (seconds since the epoch, minute-aligned); each action's
    /// own series may start earlier, for loss of signal.
    public let startSeconds: Int64
    /// The minute after the last one covered.
    public let endSeconds: Int64
    /// Per action, its whole series.
    public let actions: [String: MinuteSeries]
    /// Per action, the series of its slice values with an event in the range, by dimension and then in
    /// label order. O(slices) on inputs that are ``restricted(from:to:)``: a rule asks its context for the
    /// few it tests instead (``AlertRuleContext/slices(of:dimension:budgeted:holding:_:last:)``).
    public var slices: [String: [MinuteSeries]] {
        guard sliceRestriction != nil else { return sliceStore }
        return sliceStore.compactMapValues { series in
            let kept = series.compactMap(restrictedSlice)
            return kept.isEmpty ? nil : kept
        }
    }
    /// Per action, the series of its slice values, whole: a restriction narrows them when they are read.
    private let sliceStore: [String: [MinuteSeries]]
    /// Per action, where the slices of each of its dimensions are in ``sliceStore`` (a few, in order).
    private let sliceRanges: [String: [(dimension: EventDimension, range: Range<Int>)]]
    /// The range the slices are read within, when the inputs are restricted: a slice restricted to it
    /// (O(1)) when read, instead of every slice at every minute.
    private let sliceRestriction: Range<Int64>?
    /// The stores' charges joined with the app's reports (empty without store notifications).
    public var charges: ChargeLedger = .empty
    /// The stores' charges and refunds per hour, for refund spikes (empty without store notifications).
    public var storeActivity: StoreActivitySeries = .empty
    /// The app's grants joined with the stores' charges of their transactions (empty without grants).
    public var grants: GrantAudit = .empty
    /// The first minute whose evaluation ``grants`` holds all the grants of, when it holds only those
    /// that evaluations from there on alert on; nil when it holds those of every minute.
    public var grantsEvaluableFromSeconds: Int64?
    /// The first minute the inputs can be evaluated at with all a rule reads: the start, or later when
    /// ``grants`` holds less (the incidents' walk back stops there, and says it stopped short).
    public var evaluableFromSeconds: Int64 { max(startSeconds, grantsEvaluableFromSeconds ?? startSeconds) }
    /// Per action whose objective weighs events by revenue, the series it is judged on: its events weighted
    /// by price (``RevenueWeights``), over the minutes of its own series.
    public var weightedActions: [String: MinuteSeries] = [:]
    /// Each store's time-to-grant series (``GrantTimes/series(startSeconds:endSeconds:)``), empty without
    /// the objective or store notifications.
    public var grantTimeSeries: [Store: GrantTimes.StoreSeries] = [:]
    /// The inputs with maintenance windows' minutes left out (``budgeted``), or nil when none are.
    private var budgetView: BudgetView?

    /// The inputs error budgets are judged on: these, with the minutes that maintenance windows leave out
    /// of each action's budget emptied (``leaveOut(_:)``), in its series, its slices', its revenue-weighted
    /// series and the time-to-grant series (purchases' charges). What the burn-rate rules read; the
    /// spikes and the charges not granted read the inputs themselves.
    public var budgeted: AlertInputs { budgetView?.inputs ?? self }

    /// Leaves the minutes of `calendar`'s windows out of ``budgeted``. Call it once every series is set.
    /// O(minutes × series) when a window touches the range.
    public mutating func leaveOut(_ calendar: MaintenanceCalendar) {
        budgetView = nil
        let earliest =
            ([startSeconds] + (Array(actions.values) + Array(weightedActions.values) + grantTimeSeries.values.map(\.overall)).map(\.startSeconds))
            .min()
        guard let earliest, !calendar.bands(from: earliest, to: endSeconds).isEmpty else { return }
        budgetView = BudgetView(
            inputs: AlertInputs(
                startSeconds: startSeconds, endSeconds: endSeconds, actions: actions.mapValues(calendar.budgeted),
                slices: slices.mapValues { $0.map(calendar.budgeted) }, sliceRestriction: nil, charges: charges, storeActivity: storeActivity,
                grants: grants,
                weightedActions: weightedActions.mapValues(calendar.budgeted),
                grantTimeSeries: grantTimeSeries.mapValues {
                    GrantTimes.StoreSeries(overall: calendar.budgeted($0.overall), slices: $0.slices.map(calendar.budgeted))
                }))
    }

    /// Inputs of these parts; `sliceRanges` where each dimension's slices are in `slices`, when known (else
    /// found from their labels); `sliceRestriction` the range they are read within.
    private init(
        startSeconds: Int64, endSeconds: Int64, actions: [String: MinuteSeries], slices: [String: [MinuteSeries]],
        sliceRanges: [String: [(dimension: EventDimension, range: Range<Int>)]]? = nil, sliceRestriction: Range<Int64>?, charges: ChargeLedger,
        storeActivity: StoreActivitySeries, grants: GrantAudit, weightedActions: [String: MinuteSeries],
        grantTimeSeries: [Store: GrantTimes.StoreSeries]
    ) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.actions = actions
        sliceStore = slices
        self.sliceRanges = sliceRanges ?? Self.ranges(of: slices)
        self.sliceRestriction = sliceRestriction
        self.charges = charges
        self.storeActivity = storeActivity
        self.grants = grants
        self.weightedActions = weightedActions
        self.grantTimeSeries = grantTimeSeries
    }

    /// The budgeted inputs, shared by the copies of the inputs that hold them.
    private final class BudgetView: Sendable {
        let inputs: AlertInputs

        init(inputs: AlertInputs) { self.inputs = inputs }
    }

    /// The series of `action`'s slices of `dimension` with an event in the range, in value order. O(1) on
    /// whole inputs, O(slices of the dimension) on restricted ones.
    public func slices(of action: String, dimension: EventDimension) -> [MinuteSeries] {
        let all = unfilteredSlices(of: action, dimension: dimension)
        return sliceRestriction == nil ? Array(all) : all.compactMap(restrictedSlice)
    }

    /// The series of `action`'s slices of `dimension` (every dimension: nil), in order, whether or not they
    /// have an event in the range: whole, for ``restrictedSlice(_:)`` to narrow. O(1).
    func unfilteredSlices(of action: String, dimension: EventDimension?) -> ArraySlice<MinuteSeries> {
        guard let all = sliceStore[action] else { return [] }
        guard let dimension else { return all[...] }
        guard let range = sliceRanges[action]?.first(where: { $0.dimension == dimension })?.range else { return [] }
        return all[range]
    }

    /// The actions with slices.
    var actionsWithSlices: Dictionary<String, [MinuteSeries]>.Keys { sliceStore.keys }

    /// `slice` (one of ``unfilteredSlices(of:dimension:)``) restricted to the inputs' range. O(1).
    func viewedSlice(_ slice: MinuteSeries) -> MinuteSeries {
        guard let range = sliceRestriction else { return slice }
        return slice.restricted(from: range.lowerBound, to: range.upperBound)
    }

    /// `slice` (one of ``unfilteredSlices(of:dimension:)``) as the inputs hold it: restricted to their
    /// range, or nil when it has no event there. O(1).
    func restrictedSlice(_ slice: MinuteSeries) -> MinuteSeries? {
        let viewed = viewedSlice(slice)
        return viewed.hasEvents ? viewed : nil
    }

    /// Where each dimension's slices are in each action's, which are sorted by dimension first.
    private static func ranges(of slices: [String: [MinuteSeries]]) -> [String: [(dimension: EventDimension, range: Range<Int>)]] {
        slices.mapValues { series in
            var ranges: [(dimension: EventDimension, range: Range<Int>)] = []
            for (index, each) in series.enumerated() {
                guard let dimension = each.labels.slice?.dimension else { continue }
                if let last = ranges.last, last.dimension == dimension {
                    ranges[ranges.count - 1].range = last.range.lowerBound..<(index + 1)
                } else {
                    ranges.append((dimension, index..<(index + 1)))
                }
            }
            return ranges
        }
    }

    /// The series `action`'s objective is judged on: its revenue-weighted series when it has one, else its
    /// own.
    public func judgedSeries(of action: String) -> MinuteSeries? { weightedActions[action] ?? actions[action] }

    /// The series of `labels`: an action's, or one of its slices', a store's time-to-grant series or one of
    /// its slices', or nil when no event (or charge) had them.
    public func series(_ labels: SeriesLabels) -> MinuteSeries? {
        if let name = labels.store {
            guard let store = Store(rawValue: name), let series = grantTimeSeries[store] else { return nil }
            return labels.slice == nil ? series.overall : series.slices.first { $0.labels == labels }
        }
        guard labels.slice != nil else { return actions[labels.actionType] }
        return sliceStore[labels.actionType]?.first { $0.labels == labels }.flatMap(restrictedSlice)
    }

    /// The inputs a read of `[from, to)` alone would give: each series restricted to it, and only the
    /// series with an event there (a store answers no other). O(actions × log minutes): the slices are
    /// restricted when read.
    public func restricted(from: Int64, to: Int64) -> AlertInputs {
        func restrict(_ series: MinuteSeries) -> MinuteSeries? {
            let restricted = series.restricted(from: from, to: to)
            return restricted.hasEvents ? restricted : nil
        }
        // Within what these inputs are restricted to already: a series restricted twice covers both.
        let lower = max(from, sliceRestriction?.lowerBound ?? from)
        let within = lower..<max(lower, min(to, sliceRestriction?.upperBound ?? to))
        var restricted = AlertInputs(
            startSeconds: from, endSeconds: to, actions: actions.compactMapValues(restrict), slices: sliceStore, sliceRanges: sliceRanges,
            sliceRestriction: within, charges: charges, storeActivity: storeActivity, grants: grants,
            weightedActions: weightedActions.compactMapValues(restrict),
            grantTimeSeries: grantTimeSeries.compactMapValues { stored in
                restrict(stored.overall).map { GrantTimes.StoreSeries(overall: $0, slices: stored.slices.compactMap(restrict)) }
            })
        restricted.budgetView = budgetView.map { BudgetView(inputs: $0.inputs.restricted(from: from, to: to)) }
        return restricted
    }

    /// Builds the series from count rows with a 1-minute step: `overall` grouped by `actionType`, and
    /// `sliceRows[dimension]` grouped by `actionType` and that dimension. O(rows + series × minutes / 64).
    public init(startSeconds: Int64, endSeconds: Int64, overall: [CountRow], sliceRows: [EventDimension: [CountRow]]) {
        let minuteCount = Int(max(0, (endSeconds - startSeconds) / .secondsPerMinute))
        func series(_ rows: [CountRow]) -> CountSeries {
            CountSeries(rows: rows, startSeconds: startSeconds, stepSeconds: .secondsPerMinute, stepCount: minuteCount)
        }
        self.init(
            startSeconds: startSeconds, endSeconds: endSeconds, overall: series(overall),
            slices: sliceRows.mapValues(series))
    }

    /// Builds the series from 1-minute series: `overall` grouped by `actionType` (which may start before
    /// `startSeconds`, for loss of signal), and `slices[dimension]` grouped by `actionType` and that
    /// dimension. The series' running sums are written over the counts handed over when nothing else holds
    /// them. O(minutes with events + series × minutes / 64).
    public init(
        startSeconds: Int64, endSeconds: Int64, overall: consuming CountSeries, slices sliceSeries: consuming [EventDimension: CountSeries]
    ) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        /// The minutes from `start` up to `endSeconds`.
        func minuteCount(from start: Int64) -> Int { Int(max(0, (endSeconds - start) / .secondsPerMinute)) }
        var actions: [String: MinuteSeries] = [:]
        for index in overall.keys.indices {
            let labels = SeriesLabels(actionType: overall.keys[index][0] ?? "")
            actions[labels.actionType] = MinuteSeries(
                labels: labels, startSeconds: overall.startSeconds, minuteCount: minuteCount(from: overall.startSeconds),
                counts: Self.take(&overall.columns[index]))
        }
        var slices: [String: [MinuteSeries]] = [:]
        for dimension in sliceSeries.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            var series = sliceSeries.removeValue(forKey: dimension)!
            // Events without a value for the dimension (no offer, say) are not a slice of their own.
            for index in series.keys.indices where series.keys[index][1] != nil {
                let labels = SeriesLabels(actionType: series.keys[index][0] ?? "", slice: .init(dimension: dimension, value: series.keys[index][1]))
                slices[labels.actionType, default: []].append(
                    MinuteSeries(
                        labels: labels, startSeconds: series.startSeconds, minuteCount: minuteCount(from: series.startSeconds),
                        counts: Self.take(&series.columns[index])))
            }
        }
        self.actions = actions
        sliceRestriction = nil
        // By dimension, then label: one dimension's slices together whatever their values' characters.
        sliceStore = slices.mapValues { series in
            series.sorted { lhs, rhs in
                let (left, right) = (lhs.labels.slice?.dimension.rawValue ?? "", rhs.labels.slice?.dimension.rawValue ?? "")
                return left != right ? left < right : lhs.labels < rhs.labels
            }
        }
        sliceRanges = Self.ranges(of: sliceStore)
    }

    /// `counts`, left empty: its owner gives it up, so that what is taken can be changed in place.
    private static func take(_ counts: inout StepCounts) -> StepCounts {
        let taken = counts
        counts = StepCounts()
        return taken
    }
}
