import PurchaseSLICore

/// The in-memory store's dimension values and series under the cardinality caps: per UTC day, the first
/// `cardinalityCap` apps, and in each app the first `cardinalityCap` values of each dimension (every app's
/// `totalCardinalityCap`), count as themselves and later ones as `__other__`; the first `seriesCap` series
/// of each app (every app's `totalSeriesCap`) count as themselves and later ones in their action's (and
/// app's) overflow series.
struct ValueTable {
    /// The error descriptions' ids, and their texts by id.
    private var errorIDs: [String: Int64] = [:]
    private var errorTexts: [String] = []
    /// Per series id: its values in ``PurchaseSLICore/EventDimension/seriesDimensions`` order.
    private(set) var series: [[String?]] = []
    private var seriesIDs: [[String?]: Int64] = [:]
    /// The values admitted per day, dimension and app under the cardinality cap.
    private var admittedValues = CapAdmission<String>()
    /// The series admitted per day and app under the series cap.
    private var admittedSeries = CapAdmission<Int64>()
    /// A number per app as it counts (nil: no app), for the caps' slots (0 for none), and back.
    private var appNumbers: [String?: Int64] = [nil: 0]
    private var appTexts: [Int64: String] = [0: ""]

    /// `value` when it counts as itself for `dimension` on `day` in the budget of the app numbered `app`
    /// (0 for none, and for the apps themselves), else `__other__`.
    private mutating func admitted(_ value: String, _ dimension: EventDimension, app: Int64, day: Int64, configuration: StoreConfiguration) -> String
    {
        let slot = CapAdmission<String>.Slot(day: day, dimension: dimension.storageCode!, app: app)
        let total = CapAdmission<String>.Slot.allValues(day: day, dimension: dimension.storageCode!)
        let caps = dimension == .app ? configuration.limits(ofAppItself: value) : configuration.valueLimits(ofApp: appTexts[app] ?? "")
        let decision = admittedValues.admit(value, in: slot, cap: caps.own, within: total, totalCap: caps.total, load: { [] })
        return decision == .overflow ? EventDimension.overflowValue : value
    }

    /// The id of an error description of the app numbered `app` (``seriesID(of:day:configuration:)``) as
    /// it counts on `day` under the caps.
    mutating func valueID(_ value: String, dimension: EventDimension, app: Int64, day: Int64, configuration: StoreConfiguration) -> Int64 {
        let text = admitted(value, dimension, app: app, day: day, configuration: configuration)
        if let id = errorIDs[text] { return id }
        errorTexts.append(text)
        errorIDs[text] = Int64(errorTexts.count - 1)
        return Int64(errorTexts.count - 1)
    }

    /// The text of an error description id.
    func text(of id: Int64) -> String { errorTexts[Int(id)] }

    /// The series events with `values` count in on `day`, under both caps, and the number of their app as
    /// it counts (0: none).
    mutating func seriesID(of values: SeriesValues, day: Int64, configuration: StoreConfiguration) -> (series: Int64, app: Int64) {
        let dimensions = EventDimension.seriesDimensions
        let app = values.inSeriesDimensionOrder[SeriesValues.appPosition].map {
            admitted($0, .app, app: 0, day: day, configuration: configuration)
        }
        let appNumber = appNumbers[app] ?? Int64(appNumbers.count)
        appNumbers[app] = appNumber
        appTexts[appNumber] = app ?? ""
        let key = zip(dimensions, values.inSeriesDimensionOrder).map { dimension, value in
            dimension == .app ? app : value.map { admitted($0, dimension, app: appNumber, day: day, configuration: configuration) }
        }
        return (seriesID(of: key, app: appNumber, day: day, configuration: configuration), appNumber)
    }

    /// The id of series `key` of the app numbered `app` on `day` when the series caps admit it, else of
    /// its action's (and app's) overflow series.
    private mutating func seriesID(of key: [String?], app appNumber: Int64, day: Int64, configuration: StoreConfiguration) -> Int64 {
        let slot = CapAdmission<Int64>.Slot.series(day: day, app: appNumber)
        let total = CapAdmission<Int64>.Slot.allSeries(day: day)
        let caps = configuration.seriesLimits(ofApp: appTexts[appNumber] ?? "")
        switch admittedSeries.decide(seriesIDs[key], in: slot, cap: caps.own, within: total, totalCap: caps.total, load: { [] })
        {
        case .admitted:
            return seriesIDs[key]!
        case .admitNow:
            let id = id(of: key)
            admittedSeries.record(id, in: slot, within: total)
            return id
        case .overflow:
            return id(of: SeriesValues.overflowSeries(of: { key[$0] }, other: { _ in EventDimension.overflowValue }))
        }
    }

    private mutating func id(of key: [String?]) -> Int64 {
        if let id = seriesIDs[key] { return id }
        series.append(key)
        seriesIDs[key] = Int64(series.count - 1)
        return Int64(series.count - 1)
    }

    /// Forgets what was admitted on `day` (past the dedup horizon, as the other stores do).
    mutating func forgetAdmissions(day: Int64) {
        admittedValues.forget { $0 == day }
        admittedSeries.forget { $0 == day }
    }

    /// Returns and clears the overflow counts, per day, dimension name (or `series`) and app ("" for none).
    mutating func takeOverflow() -> [OverflowCount] {
        let slots =
            admittedValues.takeOverflow().map { ($0.key.day, $0.key.dimension, $0.key.app, $0.value) }
            + admittedSeries.takeOverflow().map { ($0.key.day, $0.key.dimension, $0.key.app, $0.value) }
        return slots.map { day, dimension, app, events in
            OverflowCount(day: day, dimension: Schema.overflowNames[dimension]!, app: appTexts[app] ?? "", events: Int64(events))
        }
    }
}
