import PurchaseSLICore

/// The dimension value ids that identify one stored series (0 means the event had no value), in
/// ``PurchaseSLICore/EventDimension/seriesDimensions`` order. Held in one SIMD vector, so a key is a
/// value without an allocation however many dimensions there are (up to 16).
struct SeriesKey: Hashable {
    /// The ids, one lane per series dimension; the lanes past ``count`` stay 0.
    private var ids = SIMD16<Int64>()

    /// The number of series dimensions.
    static let count: Int = {
        precondition(EventDimension.seriesDimensions.count <= SIMD16<Int64>.scalarCount, "a series key holds at most 16 dimensions")
        return EventDimension.seriesDimensions.count
    }()

    /// The id of the dimension at `index` of the series dimensions.
    subscript(index: Int) -> Int64 {
        get { ids[index] }
        set { ids[index] = newValue }
    }
}
