import PurchaseSLICore

/// The in-memory store's dimension values and series under the cardinality caps: per UTC day, the first
/// `cardinalityCap` values of each dimension count as themselves and later ones as `__other__`; the first
/// `seriesCap` series of each app count as themselves and later ones in their action's (and app's)
/// overflow series.
struct ValueTable {
    /// The error descriptions' ids, and their texts by id.
    private var errorIDs: [String: Int64] = [:]
    private var errorTexts: [String] = []
    /// Per series id: its values in ``PurchaseSLICore/EventDimension/seriesDimensions`` order.
    private(set) var series: [[String?]] = []
    private var seriesIDs: [[String?]: Int64] = [:]
    /// The values admitted per day and dimension under the cardinality cap.
    private var admittedValues = CapAdmission<String>()
    /// The series admitted per day and app under the series cap.
    private var admittedSeries = CapAdmission<Int64>()
    /// A number per app (as the events name it, or nil), for the series cap's slots.
    private var appNumbers: [String?: Int64] = [:]

    /// `value` when it counts as itself for `dimension` on `day` under `cap`, else `__other__`.
    private mutating func admitted(_ value: String, _ dimension: EventDimension, day: Int64, cap: Int) -> String {
        let slot = CapAdmission<String>.Slot(day: day, dimension: dimension.storageCode!)
        return admittedValues.admit(value, in: slot, cap: cap, load: { [] }) == .overflow ? EventDimension.overflowValue : value
    }

    /// The id of an error description as it counts on `day` under the cap.
    mutating func valueID(_ value: String, dimension: EventDimension, day: Int64, cap: Int) -> Int64 {
        let text = admitted(value, dimension, day: day, cap: cap)
        if let id = errorIDs[text] { return id }
        errorTexts.append(text)
        errorIDs[text] = Int64(errorTexts.count - 1)
        return Int64(errorTexts.count - 1)
    }

    /// The text of an error description id.
    func text(of id: Int64) -> String { errorTexts[Int(id)] }

    /// The series events with `values` count in on `day`, under both caps.
    mutating func seriesID(of values: SeriesValues, day: Int64, configuration: StoreConfiguration) -> Int64 {
        let dimensions = EventDimension.seriesDimensions
        let key = zip(dimensions, values.inSeriesDimensionOrder).map { dimension, value in
            value.map { admitted($0, dimension, day: day, cap: configuration.cardinalityCap) }
        }
        let app = key[SeriesValues.appPosition]
        let appNumber = appNumbers[app] ?? Int64(appNumbers.count)
        appNumbers[app] = appNumber
        let slot = CapAdmission<Int64>.Slot.series(day: day, app: appNumber)
        let total = CapAdmission<Int64>.Slot.allSeries(day: day)
        switch admittedSeries.decide(
            seriesIDs[key], in: slot, cap: configuration.seriesCap, within: total, totalCap: configuration.totalSeriesCap, load: { [] })
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

    /// Returns and clears the overflow counts, by dimension name (or `series`).
    mutating func takeOverflow() -> [String: Int] {
        let counts =
            admittedValues.takeOverflow().map { ($0.key.dimension, $0.value) } + admittedSeries.takeOverflow().map { ($0.key.dimension, $0.value) }
        return Dictionary(counts.map { (Schema.overflowNames[$0.0]!, $0.1) }, uniquingKeysWith: +)
    }
}
