import GRDB
package import PurchaseSLICore

/// The writer's memory of dimension value ids, series ids and the values admitted per day under the
/// cardinality cap. It mirrors committed rows; after a failed transaction it is emptied and refilled
/// from the database on demand, and its ids are dropped once they exceed a few days' worth at the caps.
struct InternCache {
    /// Per dimension code: the values admitted on `day` in each app's budget (by the app's value id, 0 for
    /// none), the common case of a lookup.
    private struct DayValues {
        var day: Int64 = .min
        var ids: [Int64: [String: Int64]] = [:]
    }

    private var valueIDs: [[String: Int64]] = Array(repeating: [:], count: Schema.codeLimit)
    private var dayValues: [DayValues] = Array(repeating: DayValues(), count: Schema.codeLimit)
    /// The value ids admitted per day, dimension code and app, and the series ids per day and app
    /// (``Schema/seriesCode``).
    private var admitted = CapAdmission<Int64>()
    /// The text of each app's value id met (`__other__` for the app of events past the apps' own cap), to
    /// name an app's overflow.
    private var appTexts: [Int64: String] = [:]
    /// The days whose admitted series were read from the database (every app's budget of the day primed).
    private var seriesDaysKnown = Set<Int64>()
    private var seriesIDs: [SeriesKey: Int64] = [:]
    /// Per event day (the latest ``daysOfAdmittedKeysKept``): series ids (and their app's value id) by the
    /// events' dimension values, for series none of whose values overflowed, so the common case costs one
    /// lookup instead of one per dimension.
    private var seriesByValues: [Int64: [HashedSeriesValues: (id: Int64, app: Int64)]] = [:]
    private var overflowedEvents = 0
    /// The keys of the series admitted on the latest few days (all of a day's, in storage and since):
    /// once a day is full, a series none of these is overflows without a lookup of its id.
    private var admittedSeriesKeys: [Int64: Set<SeriesKey>] = [:]
    /// Per series position, the id of `__other__` of its dimension (0 where an overflow series keeps the
    /// event's value), once an event has overflowed.
    private var overflowValueIDs: [Int64]?

    /// How many days' admitted series keys are kept (the days events arrive for: today, yesterday's late ones).
    private static let daysOfAdmittedKeysKept = 3

    /// How many days' worth of value and series ids (at the caps) the cache keeps before it starts over
    /// (the database keeps every id; a miss costs one lookup).
    static let daysOfIDsKept = 4

    /// The storage code of the `app` dimension.
    private static let appCode = EventDimension.app.storageCode!

    /// The text of the app whose value id is `app` as it counts (0: "", events without an app).
    private func appText(of app: Int64) -> String { appTexts[app] ?? "" }

    /// Empties the cache (after a rollback).
    mutating func reset() {
        self = InternCache()
    }

    /// The id under which `value` counts for `dimension` on `day` in `app`'s budget (its value id; 0 for
    /// events without an app, and for the app dimension itself), admitting it if the cap allows, else the
    /// id of `__other__`. Touches the database only on a cache miss.
    mutating func valueID(
        _ value: String, dimension: Int, app: Int64, day: Int64, configuration: StoreConfiguration, statements: InternStatements
    ) throws -> Int64 {
        if dayValues[dimension].day == day, let id = dayValues[dimension].ids[app]?[value] { return id }
        if dayValues[dimension].day != day {
            dayValues[dimension] = DayValues(day: day)
            // Ids of values seen on other days: a cache of `dimension_value` rows that would otherwise
            // grow with every day a long-running writer sees; past a few days' worth it starts over.
            if valueIDs[dimension].count > Self.daysOfIDsKept * configuration.cardinalityCap { valueIDs[dimension].removeAll() }
        }
        // The apps themselves meet the apps' cap (an app the policy names none); any other value its app's budget.
        let caps =
            dimension == Self.appCode ? configuration.limits(ofAppItself: value) : configuration.valueLimits(ofApp: appText(of: app))
        let slot = CapAdmission<Int64>.Slot(day: day, dimension: dimension, app: app)
        let total = CapAdmission<Int64>.Slot.allValues(day: day, dimension: dimension)
        if !admitted.isKnown(total) {
            admitted.prime(total, count: try statements.admittedValueCount(day: day, dimension: dimension), members: [])
        }
        let knownID = try valueIDs[dimension][value] ?? statements.existingValueID(value, dimension: dimension)
        switch try admitted.decide(
            knownID, in: slot, cap: caps.own, within: total, totalCap: caps.total,
            load: { try statements.admittedValues(day: day, dimension: dimension, app: app) })
        {
        case .admitted:
            break
        case .admitNow:
            let id = try knownID ?? statements.insertValue(value, dimension: dimension)
            try statements.admit(id, day: day, dimension: dimension, app: app)
            admitted.record(id, in: slot, within: total)
            valueIDs[dimension][value] = id
            dayValues[dimension].ids[app, default: [:]][value] = id
            return id
        case .overflow:
            overflowedEvents += 1
            return try valueID(forOverflowOf: dimension, statements: statements)
        }
        valueIDs[dimension][value] = knownID
        dayValues[dimension].ids[app, default: [:]][value] = knownID
        return knownID!
    }

    /// The id of `__other__` of `dimension`.
    private mutating func valueID(forOverflowOf dimension: Int, statements: InternStatements) throws -> Int64 {
        let other = EventDimension.overflowValue
        if let id = valueIDs[dimension][other] { return id }
        let id =
            try statements.existingValueID(other, dimension: dimension)
            ?? statements.insertValue(other, dimension: dimension)
        valueIDs[dimension][other] = id
        return id
    }

    /// The series of events with `values` on `day`, and the value id of their app as it counts (0: none),
    /// interning the values on first sight under the cardinality caps: `cardinalityCap` apps a day (and
    /// every app the policy names), and `cardinalityCap` values per dimension in each app's budget
    /// (`totalCardinalityCap` in all; ``PurchaseSLICore/StoreConfiguration/valueLimits(ofApp:)``). Past
    /// `seriesCap` series of an app on a day (`totalSeriesCap` of every app; its own cap if the policy
    /// names it), the events of a series not yet admitted that day count in their action's overflow
    /// series (every other dimension `__other__`), so that per-action totals stay exact and memory stays
    /// bounded. `hash` is `values.hash`, computed beforehand off the writer's thread.
    mutating func seriesID(
        of values: SeriesValues, hash: UInt64, day: Int64, caps configuration: StoreConfiguration, codes: [Int],
        statements: InternStatements
    ) throws -> (series: Int64, app: Int64) {
        let hashed = HashedSeriesValues(values: values, hash: hash)
        if let known = seriesByValues[day]?[hashed] { return (known.id, known.app) }
        let overflowedBefore = overflowedEvents
        var key = SeriesKey()
        let appPosition = SeriesValues.appPosition
        if let app = values.inSeriesDimensionOrder[appPosition] {
            let id = try valueID(app, dimension: codes[appPosition], app: 0, day: day, configuration: configuration, statements: statements)
            if appTexts[id] == nil { appTexts[id] = overflowedEvents == overflowedBefore ? app : EventDimension.overflowValue }
            key[appPosition] = id
        }
        for (position, value) in values.inSeriesDimensionOrder.enumerated() where position != appPosition {
            guard let value else { continue }
            key[position] = try valueID(
                value, dimension: codes[position], app: key[appPosition], day: day, configuration: configuration, statements: statements)
        }
        let id = try admittedSeriesID(key, day: day, configuration: configuration, codes: codes, statements: statements)
        if overflowedEvents == overflowedBefore {
            // The latest few days only (today's events and yesterday's late ones): a backlog or a file of
            // many days would otherwise hold every day's series, a catalog's worth per day.
            if seriesByValues[day] == nil, seriesByValues.count >= Self.daysOfAdmittedKeysKept, let oldest = seriesByValues.keys.min() {
                seriesByValues[oldest] = nil
            }
            seriesByValues[day, default: [:]][hashed] = (id, key[appPosition])
        }
        return (id, key[appPosition])
    }

    /// The id of the series `key` when it is admitted on `day` (admitting it while its app's budget and the
    /// day's total have room, ``PurchaseSLICore/StoreConfiguration/seriesLimits(ofApp:)``), else the id of
    /// its action's (and app's) overflow series.
    private mutating func admittedSeriesID(
        _ key: SeriesKey, day: Int64, configuration: StoreConfiguration, codes: [Int], statements: InternStatements
    ) throws -> Int64 {
        let caps = configuration.seriesLimits(ofApp: appText(of: key[SeriesValues.appPosition]))
        let cap = caps.own
        let slot = CapAdmission<Int64>.Slot.series(day: day, app: key[SeriesValues.appPosition])
        let total = CapAdmission<Int64>.Slot.allSeries(day: day)
        if !seriesDaysKnown.contains(day) {
            // A new day: forget what was admitted on days long past (the database keeps it, should a late
            // event need it), so the cache holds a few days' series, not every day's.
            admitted.forget { $0 < day - 10 }
            seriesDaysKnown = seriesDaysKnown.filter { $0 >= day - 10 }
            if seriesIDs.count > Self.daysOfIDsKept * configuration.seriesCap { seriesIDs.removeAll() }
            let series = try statements.admittedSeries(day: day)
            // Each app's budget is primed with its own series (an app the day has not met yet starts empty).
            var byApp: [Int64: Set<Int64>] = [:]
            for entry in series { byApp[entry.key?[SeriesValues.appPosition] ?? 0, default: []].insert(entry.id) }
            for (app, ids) in byApp {
                admitted.prime(.series(day: day, app: app), count: ids.count, members: ids)
            }
            admitted.prime(total, count: series.count, members: [])
            seriesDaysKnown.insert(day)
            if admittedSeriesKeys.count >= Self.daysOfAdmittedKeysKept, let oldest = admittedSeriesKeys.keys.min() {
                admittedSeriesKeys[oldest] = nil
            }
            admittedSeriesKeys[day] = Set(series.compactMap(\.key))
        }
        var knownID = seriesIDs[key]
        // Only a series admitted today is among the day's admissions, so one whose key is not among today's
        // (when they are kept) is decided without its id: it is admitted now (its row found or made once
        // admitted, one probe of the index for a new series) or it overflows (nothing to look up).
        let isAdmittedToday = admittedSeriesKeys[day].map { $0.contains(key) }
        if knownID == nil, isAdmittedToday != false {
            knownID = try statements.existingSeriesID(key)
            if let knownID { seriesIDs[key] = knownID }
        }
        switch admitted.decide(knownID, in: slot, cap: cap, within: total, totalCap: caps.total, load: { [] }) {
        case .admitted:
            return knownID!
        case .admitNow:
            let id = try knownID ?? statements.seriesID(insertingIfNew: key)
            seriesIDs[key] = id
            try statements.admit(id, day: day, dimension: Schema.seriesCode)
            admitted.record(id, in: slot, within: total)
            admittedSeriesKeys[day]?.insert(key)
            return id
        case .overflow:
            overflowedEvents += 1
            let others = try overflowValueIDs ?? makeOverflowValueIDs(codes: codes, statements: statements)
            overflowValueIDs = others
            var overflowKey = SeriesKey()
            for (position, id) in SeriesValues.overflowSeries(of: { key[$0] }, other: { others[$0] }).enumerated() {
                overflowKey[position] = id
            }
            return try seriesID(overflowKey, statements: statements)
        }
    }

    /// Per series position, the id of `__other__` of its dimension; 0 where an overflow series keeps the value.
    private mutating func makeOverflowValueIDs(codes: [Int], statements: InternStatements) throws -> [Int64] {
        try (0..<SeriesKey.count).map { position in
            SeriesValues.keptInOverflow.contains(position) ? 0 : try valueID(forOverflowOf: codes[position], statements: statements)
        }
    }

    /// The id of a series, creating it on first sight.
    private mutating func seriesID(_ key: SeriesKey, statements: InternStatements) throws -> Int64 {
        if let id = seriesIDs[key] { return id }
        let id = try statements.seriesID(insertingIfNew: key)
        seriesIDs[key] = id
        return id
    }

    /// Returns and clears the overflow counts, as (day, dimension code, the app's value id and text, events):
    /// the app whose budget was full (0 and "" for events without an app, and for the apps' own cap).
    mutating func takeOverflow() -> [(day: Int64, dimension: Int, app: Int64, appText: String, events: Int)] {
        admitted.takeOverflow().map { slot, events in
            (day: slot.day, dimension: slot.dimension, app: slot.app, appText: slot.app == 0 ? "" : appTexts[slot.app] ?? "", events: events)
        }
    }
}

/// The dimension values of an event that make up its series.
package struct SeriesValues: Sendable, Equatable {
    /// The values in ``PurchaseSLICore/EventDimension/seriesDimensions`` order (nil when absent).
    package let inSeriesDimensionOrder: [String?]

    /// The series values of `event`.
    package init(_ event: PurchaseEvent) {
        self = withUnsafePointer(to: event) { SeriesValues(of: $0) }
    }

    /// The values of the event at `event`, read in place (passing `pointee` on would copy the whole event).
    init(of event: UnsafePointer<PurchaseEvent>) {
        inSeriesDimensionOrder = EventDimension.seriesDimensions.map { event.pointee.value(of: $0) }
    }

    /// The series dimensions an overflow series keeps: the action, so that each action's totals stay exact,
    /// and the app, so that they stay exact in each app's view too (``AppScopedStore``).
    package static let keptInOverflow = Set([EventDimension.actionType, .app].map { $0.seriesIndex! })

    /// The position of the app among the series dimensions: the series cap is each app's.
    package static let appPosition = EventDimension.app.seriesIndex!

    /// The series an event counts in when its day admits no more series: its action's (and app's) overflow
    /// series, the event's value `key(position)` kept for the dimensions of ``keptInOverflow`` and each
    /// other dimension's value `other(position)` (its `__other__`).
    package static func overflowSeries<Value>(of key: (Int) -> Value, other: (Int) -> Value) -> [Value] {
        EventDimension.seriesDimensions.indices.map { keptInOverflow.contains($0) ? key($0) : other($0) }
    }

    /// FNV-1a over the values, each followed by a byte that UTF-8 never uses (0xFF, or 0xFE for an
    /// absent value).
    var hash: UInt64 {
        var hasher = FNV1a()
        for value in inSeriesDimensionOrder { hasher.add(value) }
        return hasher.state
    }
}

/// Series values with their hash (``SeriesValues/hash``, computed while preparing, off the writer's
/// thread), hashed by it alone: the writer's lookups of the values hash one number, not every string.
/// Values whose hashes collide are still told apart by their text.
package struct HashedSeriesValues: Hashable {
    /// The values.
    package let values: SeriesValues
    /// Their hash.
    package let hash: UInt64

    /// Pairs `values` with their `hash`.
    package init(values: SeriesValues, hash: UInt64) {
        self.values = values
        self.hash = hash
    }

    /// Equal when the values are (the hash first, the cheaper test).
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.hash == rhs.hash && lhs.values == rhs.values }

    /// Feeds the hash alone.
    package func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// The 64-bit FNV-1a hash, fed a byte or a string at a time.
private struct FNV1a {
    var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ byte: UInt8) {
        state ^= UInt64(byte)
        state &*= 0x0000_0100_0000_01B3
    }

    /// Adds the UTF-8 bytes of `value` and a terminator (0xFF), or 0xFE when there is no value.
    mutating func add(_ value: String?) {
        guard let value else { return add(0xFE) }
        for byte in value.utf8 { add(byte) }
        add(0xFF)
    }
}
