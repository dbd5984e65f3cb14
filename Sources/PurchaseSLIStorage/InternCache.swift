import GRDB
import PurchaseSLICore

/// The writer's memory of dimension value ids, series ids and the values admitted per day under the
/// cardinality cap. It mirrors committed rows; after a failed transaction it is emptied and refilled
/// from the database on demand.
struct InternCache {
    private struct DayDimension: Hashable {
        var day: Int64
        var dimension: Int
    }

    /// Per dimension code: the values admitted on `day`, the common case of a lookup.
    private struct DayValues {
        var day: Int64 = .min
        var ids: [String: Int64] = [:]
    }

    private var valueIDs: [[String: Int64]] = Array(repeating: [:], count: 11)
    private var dayValues: [DayValues] = Array(repeating: DayValues(), count: 11)
    private var admitted: [DayDimension: Set<Int64>] = [:]
    private var seriesIDs: [SeriesKey: Int64] = [:]
    /// Per event day: series ids by the events' dimension values, for series none of whose values
    /// overflowed, so the common case costs one lookup instead of one per dimension.
    private var seriesByValues: [Int64: [UInt64: [(values: SeriesValues, id: Int64)]]] = [:]
    private var overflowedEvents = 0

    /// Events per dimension code counted under `__other__` since the last ``takeOverflow()``.
    private var overflow: [DayDimension: Int] = [:]

    /// Empties the cache (after a rollback).
    mutating func reset() {
        self = InternCache()
    }

    /// The id under which `value` counts for `dimension` on `day`, admitting it if the cap allows,
    /// else the id of `__other__`. Touches the database only on a cache miss.
    mutating func valueID(
        _ value: String, dimension: Int, day: Int64, cap: Int, statements: InternStatements
    ) throws -> Int64 {
        if dayValues[dimension].day == day, let id = dayValues[dimension].ids[value] { return id }
        if dayValues[dimension].day != day { dayValues[dimension] = DayValues(day: day) }
        let key = DayDimension(day: day, dimension: dimension)
        var admittedIDs = try admitted[key] ?? statements.admittedValues(day: day, dimension: dimension)
        let knownID = try valueIDs[dimension][value] ?? statements.existingValueID(value, dimension: dimension)
        if let knownID, admittedIDs.contains(knownID) {
            valueIDs[dimension][value] = knownID
            dayValues[dimension].ids[value] = knownID
            admitted[key] = admittedIDs
            return knownID
        }
        if admittedIDs.count >= cap {
            admitted[key] = admittedIDs
            overflow[key, default: 0] += 1
            overflowedEvents += 1
            return try valueID(forOverflowOf: dimension, statements: statements)
        }
        let id = try knownID ?? statements.insertValue(value, dimension: dimension)
        try statements.admit(id, day: day, dimension: dimension)
        admittedIDs.insert(id)
        admitted[key] = admittedIDs
        valueIDs[dimension][value] = id
        dayValues[dimension].ids[value] = id
        return id
    }

    private mutating func valueID(forOverflowOf dimension: Int, statements: InternStatements) throws -> Int64 {
        let other = EventDimension.overflowValue
        if let id = valueIDs[dimension][other] { return id }
        let id = try statements.existingValueID(other, dimension: dimension)
            ?? statements.insertValue(other, dimension: dimension)
        valueIDs[dimension][other] = id
        return id
    }

    /// The series an event counts in on `day`, interning its values (under the cardinality cap) on first
    /// sight. `hash` is ``SeriesValues/hash(of:)`` of the event.
    mutating func seriesID(
        of event: borrowing PurchaseEvent, hash: UInt64, day: Int64, cap: Int, codes: [Int], statements: InternStatements
    ) throws -> Int64 {
        if let candidates = seriesByValues[day]?[hash] {
            for candidate in candidates where candidate.values.matches(event) { return candidate.id }
        }
        let overflowedBefore = overflowedEvents
        var key = SeriesKey()
        for (position, dimension) in EventDimension.seriesDimensions.enumerated() {
            guard let value = event.value(of: dimension) else { continue }
            key[position] = try valueID(value, dimension: codes[position], day: day, cap: cap, statements: statements)
        }
        let id = try seriesID(key, statements: statements)
        if overflowedEvents == overflowedBefore {
            if seriesByValues[day] == nil, seriesByValues.count >= 8 { seriesByValues.removeAll() }
            seriesByValues[day, default: [:]][hash, default: []].append((SeriesValues(event), id))
        }
        return id
    }

    /// The id of a series, creating it on first sight.
    private mutating func seriesID(_ key: SeriesKey, statements: InternStatements) throws -> Int64 {
        if let id = seriesIDs[key] { return id }
        let id = try statements.existingSeriesID(key) ?? statements.insertSeries(key)
        seriesIDs[key] = id
        return id
    }

    /// Returns and clears the overflow counts, as (day, dimension code, events).
    mutating func takeOverflow() -> [(day: Int64, dimension: Int, events: Int)] {
        defer { overflow = [:] }
        return overflow.map { (day: $0.key.day, dimension: $0.key.dimension, events: $0.value) }
    }
}

/// The dimension values of an event that make up its series.
struct SeriesValues {
    var actionType: String
    var productID: String
    var planID, groupID, offerID, appVersion, platform, osVersion, variant: String?

    init(_ event: borrowing PurchaseEvent) {
        actionType = event.actionType.rawValue
        productID = event.productID
        planID = event.planID
        groupID = event.groupID
        offerID = event.offerID
        appVersion = event.appVersion
        platform = event.platform
        osVersion = event.osVersion
        variant = event.variant
    }

    /// Whether `event` has exactly these values.
    func matches(_ event: borrowing PurchaseEvent) -> Bool {
        event.productID == productID && event.planID == planID && event.appVersion == appVersion
            && event.osVersion == osVersion && event.actionType.rawValue == actionType && event.offerID == offerID
            && event.variant == variant && event.platform == platform && event.groupID == groupID
    }

    /// FNV-1a over the values of `event`, each followed by a byte that UTF-8 never uses (0xFF, or 0xFE
    /// for an absent value), without copying the strings.
    static func hash(of event: PurchaseEvent) -> UInt64 {
        var state: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            state ^= UInt64(byte)
            state &*= 0x0000_0100_0000_01B3
        }
        func mix(_ value: String?) {
            guard let value else { return mix(0xFE) }
            let hashedContiguously: Void? = value.utf8.withContiguousStorageIfAvailable { bytes in
                for byte in bytes { mix(byte) }
            }
            if hashedContiguously == nil { for byte in value.utf8 { mix(byte) } }
            mix(0xFF)
        }
        mix(event.actionType.rawValue)
        mix(event.productID)
        mix(event.planID)
        mix(event.groupID)
        mix(event.offerID)
        mix(event.appVersion)
        mix(event.platform)
        mix(event.osVersion)
        mix(event.variant)
        return state
    }
}
