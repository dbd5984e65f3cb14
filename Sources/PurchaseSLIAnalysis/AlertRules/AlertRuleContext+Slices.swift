import PurchaseSLICore

extension AlertRuleContext {
    /// The evaluation time: the end of the minutes the rules read.
    var time: Int64 { inputs.endSeconds }

    /// `action`'s slices of `dimension` (every dimension: nil) whose `count` over the `windowSeconds`
    /// before the time is at least `minimum`, in order, as ``inputs`` holds them (of its budgeted inputs
    /// with `budgeted`): the only slices a test that needs as much can pass. A minimum of 0 or less names
    /// every slice with an event in what the rules read, and a window is at most that. Found by the
    /// run's ``SliceSweep``: O(slices that changed since the last minute) rather than O(slices).
    func slices(
        of action: String, dimension: EventDimension? = nil, budgeted: Bool = false, holding minimum: Int64, _ count: SliceCount,
        last windowSeconds: Int64
    ) -> [MinuteSeries] {
        let sweep = sliceSweep(of: action, dimension: dimension, budgeted: budgeted, holding: minimum, count, last: windowSeconds)
        // The budgeted inputs are restricted to the same range as the inputs.
        return sweep.active(at: time).compactMap { inputs.restrictedSlice(sweep.units[$0][0]) }
    }

    /// How many slices ``slices(of:dimension:budgeted:holding:_:last:)`` names.
    func sliceCount(
        of action: String, dimension: EventDimension? = nil, budgeted: Bool = false, holding minimum: Int64, _ count: SliceCount,
        last windowSeconds: Int64
    ) -> Int {
        sliceSweep(of: action, dimension: dimension, budgeted: budgeted, holding: minimum, count, last: windowSeconds).activeCount(at: time)
    }

    /// The values of `dimension` whose slices of every action together hold at least `minimum` of `count`
    /// over the `windowSeconds` before the time (with a minimum of 0 or less, those with an event in what
    /// the rules read), in value order, each with its slices as ``inputs`` holds them. Found by the run's
    /// ``SliceSweep`` over the values.
    func values(
        of dimension: EventDimension, holding minimum: Int64, _ count: SliceCount, last windowSeconds: Int64
    ) -> [(value: String, slices: [MinuteSeries])] {
        let (values, sweep) = valueSweep(of: dimension, holding: minimum, count, last: windowSeconds)
        return sweep.active(at: time).map { index in (values[index], sweep.units[index].compactMap(inputs.restrictedSlice)) }
    }

    /// How many values ``values(of:holding:_:last:)`` names.
    func valueCount(of dimension: EventDimension, holding minimum: Int64, _ count: SliceCount, last windowSeconds: Int64) -> Int {
        valueSweep(of: dimension, holding: minimum, count, last: windowSeconds).sweep.activeCount(at: time)
    }

    /// The run's sweep of `action`'s slices of `dimension` for `minimum` of `count` over `windowSeconds`.
    private func sliceSweep(
        of action: String, dimension: EventDimension?, budgeted: Bool, holding minimum: Int64, _ count: SliceCount, last windowSeconds: Int64
    ) -> SliceSweep {
        let (window, minimum, count) = test(minimum: minimum, count, last: windowSeconds)
        let key = SliceSweeps.Key(action: action, dimension: dimension, budgeted: budgeted, count: count, windowSeconds: window, minimum: minimum)
        return run.shared("slice sweeps") { SliceSweeps() }.sweep(key) {
            let whole = budgeted ? allInputs.budgeted : allInputs
            return SliceSweep(
                units: whole.unfilteredSlices(of: action, dimension: dimension).map { [whole.viewedSlice($0)] }, windowSeconds: window,
                minimum: minimum, count: count)
        }
    }

    /// The run's sweep of the values of `dimension` (each unit one value's slices of every action), and the
    /// values, for `minimum` of `count` over `windowSeconds`.
    private func valueSweep(
        of dimension: EventDimension, holding minimum: Int64, _ count: SliceCount, last windowSeconds: Int64
    ) -> (values: [String], sweep: SliceSweep) {
        let (window, minimum, count) = test(minimum: minimum, count, last: windowSeconds)
        return run.shared("values \(dimension.rawValue) \(count.rawValue) \(window) \(minimum)") { () -> Shared<([String], SliceSweep)> in
            var byValue: [String: [MinuteSeries]] = [:]
            for action in allInputs.actionsWithSlices.sorted() {
                for slice in allInputs.unfilteredSlices(of: action, dimension: dimension) {
                    guard let value = slice.labels.slice?.value else { continue }
                    byValue[value, default: []].append(allInputs.viewedSlice(slice))
                }
            }
            let values = byValue.keys.sorted()
            return Shared((values, SliceSweep(units: values.map { byValue[$0]! }, windowSeconds: window, minimum: minimum, count: count)))
        }.value
    }

    /// The test a sweep makes for `minimum` of `count` over `windowSeconds`: a window is at most what the
    /// rules read (a restricted series reads no further), and a minimum of 0 or less is any event there.
    private func test(minimum: Int64, _ count: SliceCount, last windowSeconds: Int64) -> (window: Int64, minimum: Int64, count: SliceCount) {
        let reach = inputs.endSeconds - inputs.startSeconds
        return minimum >= 1 ? (min(windowSeconds, reach), minimum, count) : (reach, 1, .total)
    }
}

/// The sweeps of one run, by what they test.
final class SliceSweeps {
    /// What a sweep tests: the slices of an action (of one dimension, or every one), of the budgeted
    /// inputs or not, for a minimum of a count over a window.
    struct Key: Hashable {
        var action: String
        var dimension: EventDimension?
        var budgeted: Bool
        var count: SliceCount
        var windowSeconds: Int64
        var minimum: Int64
    }

    private var sweeps: [Key: SliceSweep] = [:]

    /// The sweep of `key`, made by `make` the first time.
    func sweep(_ key: Key, make: () -> SliceSweep) -> SliceSweep {
        if let known = sweeps[key] { return known }
        let made = make()
        sweeps[key] = made
        return made
    }
}

/// A value kept in an ``AlertRun``.
final class Shared<Value> {
    /// The value.
    let value: Value

    /// Keeps `value`.
    init(_ value: Value) { self.value = value }
}
