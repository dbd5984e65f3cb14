public import PurchaseSLICore

extension SLOPolicy {
    /// The time-to-grant objective (`reconciliation.timeToGrant` in `dashboards/slos.yaml`): the share of
    /// the charges the policy expects a grant for that the app grants within `withinSeconds` of the store's
    /// charge ("99 % of charges granted within 60 s"), with burn-rate alerts like the success rates'.
    public struct TimeToGrantObjective: Sendable, Hashable {
        /// The target, window, owner and runbook (its action is `purchase`, the flow that grants).
        public var objective: Objective
        /// How soon after the store's charge a grant counts as on time, in seconds.
        public var withinSeconds: Int64

        /// Creates the objective.
        public init(objective: Objective, withinSeconds: Int64) {
            self.objective = objective
            self.withinSeconds = withinSeconds
        }

        /// 99 % of charges granted within 60 s, over 28 days.
        public static let standard = TimeToGrantObjective(
            objective: Objective(actionType: ActionType.purchase.rawValue, target: 0.99, window: .rolling(seconds: 28 * .secondsPerDay)),
            withinSeconds: .secondsPerMinute)
    }
}

/// How long each charge the policy expects a grant for took to be granted: from the store's charge
/// (its purchase time) to the app's first `success` or `alreadyGranted` event naming its transaction,
/// per store, product and the app version that granted it. What the time-to-grant objective, its burn
/// alerts, the pages' percentiles and the weekly review read.
public struct GrantTimes: Sendable {
    /// One charge and its grant.
    public struct Charge: Sendable, Hashable {
        /// The store that charged.
        public var store: Store
        /// The product (the store's, else the app's).
        public var productID: String
        /// The app version of the event that granted it, or nil (not granted, or granted by a 409).
        public var appVersion: String?
        /// When the store charged, received the notification, and the app granted it (nil: never), in milliseconds.
        public var chargedMillis: Int64
        public var receivedMillis: Int64
        public var grantedMillis: Int64?

        /// The time from the charge to its grant in milliseconds (0 for a grant the device's clock put
        /// before the charge), or nil when not granted.
        public var grantMillis: Int64? { grantedMillis.map { max(0, $0 - chargedMillis) } }
    }

    /// The charges, by charge time.
    public let charges: [Charge]
    /// How soon a grant counts as on time, in seconds.
    public let withinSeconds: Int64

    /// None.
    public static let empty = GrantTimes(charges: [], withinSeconds: .secondsPerMinute)

    private init(charges: [Charge], withinSeconds: Int64) {
        self.charges = charges
        self.withinSeconds = withinSeconds
    }

    /// The expected charges of `ledger` (as ``ChargeLedger`` matched their grants), each with the app
    /// version of the first of `grants` (by time) that names its transaction.
    public init(ledger: ChargeLedger, grants: some Sequence<GrantRecord>, withinSeconds: Int64) {
        var versions: [String: String] = [:]
        for grant in grants {
            guard let version = grant.appVersion, versions[grant.transactionID] == nil else { continue }
            versions[grant.transactionID] = version
        }
        charges = ledger.expectedCharges.map { charge in
            Charge(
                store: charge.notification.store, productID: charge.productID,
                appVersion: charge.grantedMillis == nil ? nil : charge.notification.transactionID.flatMap { versions[$0] },
                chargedMillis: charge.eventMillis, receivedMillis: charge.receivedMillis, grantedMillis: charge.grantedMillis)
        }
        self.withinSeconds = withinSeconds
    }

    /// When `charge`'s outcome is known: once its notification is received and the objective's time has
    /// passed since the charge, so an evaluation at any time counts it as a later one does.
    public func decidedMillis(of charge: Charge) -> Int64 { max(charge.receivedMillis, charge.chargedMillis + withinSeconds * .millisPerSecond) }

    /// Whether `charge` was granted within the objective's time.
    public func isOnTime(_ charge: Charge) -> Bool { charge.grantMillis.map { $0 <= withinSeconds * .millisPerSecond } ?? false }

    /// The minute series the objective is judged on, per store: each charge counted at the minute its
    /// outcome is known (``decidedMillis(of:)``), a `success` when on time and a `failure` when not,
    /// over `[startSeconds, endSeconds)`; with slices by product and by the granting app version
    /// (charges not granted have none). Labels: action `purchase`, the store.
    public func series(startSeconds: Int64, endSeconds: Int64) -> [Store: StoreSeries] {
        let minuteCount = Int(max(0, (endSeconds - startSeconds) / .secondsPerMinute))
        var minutes: [SeriesLabels: StepCounts] = [:]
        for charge in charges {
            let minute = Int(
                (decidedMillis(of: charge).floorDividedBy(.millisPerMinute).quotient * .secondsPerMinute - startSeconds) / .secondsPerMinute)
            guard minute >= 0, minute < minuteCount else { continue }
            let onTime = isOnTime(charge)
            let overall = Self.labels(store: charge.store)
            var keys = [overall, Self.labels(store: charge.store, slice: .init(dimension: .productID, value: charge.productID))]
            if let version = charge.appVersion { keys.append(Self.labels(store: charge.store, slice: .init(dimension: .appVersion, value: version))) }
            let counts = onTime ? OutcomeCounts(success: 1) : OutcomeCounts(failure: 1)
            for key in keys { minutes[key, default: StepCounts()].add(counts, at: Int32(minute)) }
        }
        // Every charge counts in its store's whole series, so each store with a slice has one.
        var result: [Store: StoreSeries] = [:]
        for store in Store.allCases {
            guard let overall = minutes[Self.labels(store: store)] else { continue }
            let slices = minutes.filter { $0.key.store == store.rawValue && $0.key.slice != nil }.sorted { $0.key < $1.key }
            result[store] = StoreSeries(
                overall: MinuteSeries(labels: Self.labels(store: store), startSeconds: startSeconds, minuteCount: minuteCount, counts: overall),
                slices: slices.map { MinuteSeries(labels: $0.key, startSeconds: startSeconds, minuteCount: minuteCount, counts: $0.value) })
        }
        return result
    }

    /// The labels of a store's time-to-grant series (and of its slices).
    public static func labels(store: Store, slice: SeriesLabels.Slice? = nil) -> SeriesLabels {
        SeriesLabels(actionType: ActionType.purchase.rawValue, store: store.rawValue, slice: slice)
    }

    /// One store's series: its whole and its slices.
    public struct StoreSeries: Sendable {
        /// All its charges.
        public var overall: MinuteSeries
        /// By product and by granting app version.
        public var slices: [MinuteSeries] = []
    }
}

extension GrantTimes {
    /// A time to grant as a percentile reads it.
    public enum Time: Sendable, Hashable, Comparable {
        /// Granted this many milliseconds after the charge.
        case after(millis: Int64)
        /// Not granted (by the time read).
        case notGranted
    }

    /// The times to grant of some charges, as known at a time.
    public struct Summary: Sendable, Hashable {
        /// The charges whose outcome was known (``GrantTimes/decidedMillis(of:)``).
        public var charges = 0
        /// Of those, the ones granted within the objective's time.
        public var onTime = 0
        /// Of those, the ones not granted by the time read.
        public var notGranted = 0
        /// The median and the 95th percentile (nearest rank), nil without charges.
        public var median: Time?
        public var p95: Time?

        /// The share granted on time, nil without charges.
        public var onTimeShare: Double? { charges > 0 ? Double(onTime) / Double(charges) : nil }
        /// The charges granted late or not at all.
        public var late: Int { charges - onTime }
    }

    /// The charges made in `[from, to)` (milliseconds), by charge time. O(log n).
    public func charges(from: Int64, to: Int64) -> ArraySlice<Charge> {
        charges.timeSlice(millis: \.chargedMillis, from: from, through: to - 1)
    }

    /// What `charges` tell at `now`: those whose outcome is known by then, a grant after `now` not yet made.
    public func summary(of charges: some Sequence<Charge>, at now: Int64) -> Summary {
        var summary = Summary()
        var times: [Time] = []
        for charge in charges where decidedMillis(of: charge) <= now {
            summary.charges += 1
            guard let granted = charge.grantedMillis, granted <= now, let millis = charge.grantMillis else {
                summary.notGranted += 1
                times.append(.notGranted)
                continue
            }
            if millis <= withinSeconds * .millisPerSecond { summary.onTime += 1 }
            times.append(.after(millis: millis))
        }
        guard !times.isEmpty else { return summary }
        times.sort()
        /// The nearest-rank percentile `p` (0 < p ≤ 1).
        func percentile(_ p: Double) -> Time { times[max(0, Int((p * Double(times.count)).rounded(.up)) - 1)] }
        summary.median = percentile(0.5)
        summary.p95 = percentile(0.95)
        return summary
    }

    /// The summaries of the charges made in `[from, to)` grouped by `key` (a nil key leaves a charge
    /// out), as known at `now`.
    public func summaries<Key: Hashable>(from: Int64, to: Int64, at now: Int64, by key: (Charge) -> Key?) -> [Key: Summary] {
        var groups: [Key: [Charge]] = [:]
        for charge in charges(from: from, to: to) { if let group = key(charge) { groups[group, default: []].append(charge) } }
        return groups.mapValues { summary(of: $0, at: now) }
    }
}

extension GrantTimes {
    /// The times to grant of one store, or of one product or granting app version of it.
    public struct Row: Sendable, Hashable {
        /// The store.
        public var store: Store
        /// The product or app version, or nil for all of the store's charges.
        public var slice: SeriesLabels.Slice?
        /// What its charges tell.
        public var summary: Summary
    }

    /// The charges made in `[from, to)` as known at `now`: per store, then per product and per granting
    /// app version of it (charges not granted have no version), each store's slices with the most charges
    /// late or not granted first.
    public func breakdown(from: Int64, to: Int64, at now: Int64) -> [Row] {
        let stores = summaries(from: from, to: to, at: now) { $0.store }
        let products = summaries(from: from, to: to, at: now) { Row.Key(store: $0.store, dimension: .productID, value: $0.productID) }
        let versions = summaries(from: from, to: to, at: now) { charge in
            charge.appVersion.map { Row.Key(store: charge.store, dimension: .appVersion, value: $0) }
        }
        var rows: [Row] = []
        for store in stores.keys.sorted() where stores[store]!.charges > 0 {
            rows.append(Row(store: store, slice: nil, summary: stores[store]!))
            let slices = products.merging(versions) { first, _ in first }.filter { $0.key.store == store && $0.value.charges > 0 }
            rows += slices.sorted { lhs, rhs in
                lhs.value.late != rhs.value.late
                    ? lhs.value.late > rhs.value.late
                    : (lhs.key.dimension.rawValue, lhs.key.value) < (rhs.key.dimension.rawValue, rhs.key.value)
            }
            .map { Row(store: store, slice: .init(dimension: $0.key.dimension, value: $0.key.value), summary: $0.value) }
        }
        return rows
    }
}

extension GrantTimes.Row {
    /// A store and one value of one dimension.
    struct Key: Hashable {
        var store: Store
        var dimension: EventDimension
        var value: String
    }
}

extension GrantTimes {
    /// Per store, the charges whose outcome became known in `[from, to)` (milliseconds), as the
    /// objective's series counts them: `success` on time, `failure` late. O(n).
    public func decidedCounts(from: Int64, to: Int64) -> [Store: OutcomeCounts] {
        var counts: [Store: OutcomeCounts] = [:]
        for charge in charges {
            let decided = decidedMillis(of: charge)
            guard decided >= from, decided < to else { continue }
            if isOnTime(charge) {
                counts[charge.store, default: OutcomeCounts()].success += 1
            } else {
                counts[charge.store, default: OutcomeCounts()].failure += 1
            }
        }
        return counts
    }
}
