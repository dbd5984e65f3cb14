public import PurchaseSLICore

/// The stores' charges and refunds per hour of each store and product, as prefix sums, so that any
/// window of whole hours counts in O(1): what refund spikes read.
public struct StoreActivitySeries: Sendable {
    /// A store and product.
    public struct Key: Sendable, Hashable, Comparable {
        /// The store.
        public var store: Store
        /// The product.
        public var productID: String

        public static func < (lhs: Key, rhs: Key) -> Bool { (lhs.store, lhs.productID) < (rhs.store, rhs.productID) }
    }

    /// The first hour covered (seconds, hour-aligned).
    public let startSeconds: Int64
    /// Per key, the prefix sums of charges and refunds: element h counts the hours before `startSeconds + h × 3600`.
    private let charges: [Key: [Int64]]
    private let refunds: [Key: [Int64]]

    /// No activity.
    public static let empty = StoreActivitySeries(rows: [], startSeconds: 0, endSeconds: 0, environments: [])

    /// The keys with any charge or refund.
    public var keys: [Key] { Set(charges.keys).union(refunds.keys).sorted() }

    /// Builds the series from hourly rows of `[startSeconds, endSeconds)`, keeping `environments`.
    /// O(rows + hours × keys).
    public init(rows: [StoreActivityRow], startSeconds: Int64, endSeconds: Int64, environments: Set<String>) {
        let start = startSeconds - startSeconds.floorDividedBy(.secondsPerHour).remainder
        self.startSeconds = start
        let hours = Int(max(0, (endSeconds - start + 3599) / .secondsPerHour))
        var chargeHours: [Key: [Int64]] = [:]
        var refundHours: [Key: [Int64]] = [:]
        for row in rows where environments.contains(row.environment) && row.kind != .other {
            let hour = Int((row.timeSeconds - start).floorDividedBy(.secondsPerHour).quotient)
            guard (0..<hours).contains(hour) else { continue }
            let key = Key(store: row.store, productID: row.productID ?? "(unknown product)")
            if row.kind == .charge {
                chargeHours[key, default: Array(repeating: 0, count: hours)][hour] += row.count
            } else {
                refundHours[key, default: Array(repeating: 0, count: hours)][hour] += row.count
            }
        }
        func prefixSums(_ counts: [Int64]) -> [Int64] {
            var sums = [Int64](repeating: 0, count: counts.count + 1)
            for (index, count) in counts.enumerated() { sums[index + 1] = sums[index] + count }
            return sums
        }
        charges = chargeHours.mapValues(prefixSums)
        refunds = refundHours.mapValues(prefixSums)
    }

    /// Charges and refunds of `key` over the whole hours of `[from, to)` the series covers.
    public func counts(_ key: Key, from: Int64, to: Int64) -> (charges: Int64, refunds: Int64) {
        func total(_ sums: [Int64]?) -> Int64 {
            guard let sums else { return 0 }
            let first = Int(max(0, min(Int64(sums.count - 1), (from - startSeconds).floorDividedBy(.secondsPerHour).quotient)))
            let last = Int(max(0, min(Int64(sums.count - 1), (to - startSeconds).floorDividedBy(.secondsPerHour).quotient)))
            return last > first ? sums[last] - sums[first] : 0
        }
        return (total(charges[key]), total(refunds[key]))
    }
}
