import PurchaseSLICore

/// The in-memory store's dimension values and series under the cardinality caps: per UTC day, the first
/// `cardinalityCap` values of each dimension count as themselves and later ones as `__other__`; the first
/// `seriesCap` series count as themselves and later ones in their action's overflow series.
struct ValueTable {
    /// A day and what is admitted on it: a dimension's name, or `series`.
    private struct Admission: Hashable {
        var day: Int64
        var name: String
    }

    /// The error descriptions' ids, and their texts by id.
    private var errorIDs: [String: Int64] = [:]
    private var errorTexts: [String] = []
    /// Per series id: its values in ``PurchaseSLICore/EventDimension/seriesDimensions`` order.
    private(set) var series: [[String?]] = []
    private var seriesIDs: [[String?]: Int64] = [:]
    private var admittedValues: [Admission: Set<String>] = [:]
    private var admittedSeries: [Admission: Set<Int64>] = [:]
    /// Events counted under `__other__` per dimension name (or `series`) since the last ``takeOverflow()``.
    private var overflow: [String: Int] = [:]

    /// `value` when it is admitted for `dimension` on `day` (admitting it while fewer than `cap` are),
    /// else `__other__`.
    private mutating func admitted(_ value: String, _ dimension: EventDimension, day: Int64, cap: Int) -> String {
        let key = Admission(day: day, name: dimension.rawValue)
        if admittedValues[key]?.contains(value) == true { return value }
        guard admittedValues[key, default: []].count < cap else {
            overflow[dimension.rawValue, default: 0] += 1
            return EventDimension.overflowValue
        }
        admittedValues[key, default: []].insert(value)
        return value
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
        let admission = Admission(day: day, name: "series")
        if let id = seriesIDs[key], admittedSeries[admission]?.contains(id) == true { return id }
        guard admittedSeries[admission, default: []].count < configuration.seriesCap else {
            overflow["series", default: 0] += 1
            return id(of: [key[0]] + repeatElement(EventDimension.overflowValue as String?, count: dimensions.count - 1))
        }
        let id = id(of: key)
        admittedSeries[admission, default: []].insert(id)
        return id
    }

    private mutating func id(of key: [String?]) -> Int64 {
        if let id = seriesIDs[key] { return id }
        series.append(key)
        seriesIDs[key] = Int64(series.count - 1)
        return Int64(series.count - 1)
    }

    /// Forgets what was admitted on `day` (past the dedup horizon, as the other stores do).
    mutating func forgetAdmissions(day: Int64) {
        admittedValues = admittedValues.filter { $0.key.day != day }
        admittedSeries = admittedSeries.filter { $0.key.day != day }
    }

    /// Returns and clears the overflow counts.
    mutating func takeOverflow() -> [String: Int] {
        defer { overflow = [:] }
        return overflow
    }
}
