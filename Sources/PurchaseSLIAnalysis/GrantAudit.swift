public import PurchaseSLICore

/// The ledger read the other way round: from the grants the app reported to the store charges behind
/// them. A transaction granted again (a second `success`, or a grant of another product) is a
/// **double grant**, the failure the 409 "already granted" answer exists to prevent; a grant that no
/// store charge names, once the store's notifications for its time are complete, is a **grant without a
/// charge**: revenue given away, or a replayed or forged receipt. Built once per evaluation; what it says
/// at a time depends only on the grants made and the notifications received by then.
public struct GrantAudit: Sendable {
    /// One grant, with the store it names and the store's charge of its transaction.
    public struct Grant: Sendable, Hashable {
        /// What the app reported.
        public var record: GrantRecord
        /// The store: its charge's, else the one of the event's platform; nil when neither tells.
        public var store: Store?
        /// The first charge notification of its transaction received, or nil.
        public var charge: ReceivedNotification?

        /// Its price: the store's charge's, else the event's; nil without one.
        public var worth: (amount: Double, currency: String)? {
            if let price = charge?.notification.price, let currency = charge?.notification.currency { return (price, currency) }
            if let price = record.price, let currency = record.currency { return (price, currency) }
            return nil
        }

        /// The store and product it is alerted on.
        public var key: ChargeLedger.ProductKey? { store.map { ChargeLedger.ProductKey(store: $0, productID: record.productID) } }
    }

    /// A grant of a transaction that a grant of the ``repeatSpanMillis`` before it already granted.
    public struct Repeat: Sendable, Hashable {
        /// The repeated grant.
        public var grant: Grant
        /// The transaction's first grant within the span before it.
        public var first: GrantRecord
        /// Whether it granted another product than the first grant (a receipt read for the wrong product).
        public var isOtherProduct: Bool { grant.record.productID != first.productID }
    }

    /// How far apart two grants of one transaction count as a double grant: 7 days, the span in which
    /// the app's events are matched to a charge (``ChargeLedger/reportsAfterChargeMillis``). Whether a
    /// grant repeats depends only on the grants of this span before it, so an audit read from any time
    /// at least this span before a grant says the same of it.
    public static let repeatSpanMillis = ChargeLedger.reportsAfterChargeMillis

    /// A grant that can count as without a charge: from when, and until when.
    public struct Uncharged: Sendable, Hashable {
        /// The grant.
        public var grant: Grant
        /// From when it counts (milliseconds): the policy's wait after the grant has passed and its store
        /// has delivered a charge notification since.
        public var fromMillis: Int64
        /// Until when (milliseconds): its charge's receipt, or `Int64.max`.
        public var untilMillis: Int64
    }

    /// The grants audited, by time: every grant of the span read, or, in an audit of repeats alone (read
    /// while no charge is stored, when no grant can be without one), those the repeats and the grants
    /// they repeat, and every grant of the windows around them that their alerts count.
    public let grants: [Grant]
    /// The repeated grants, by time.
    public let repeats: [Repeat]
    /// The grants that count as without a charge at some time (``Uncharged``), by grant time: those of a
    /// store the policy says notifies every charge, whose product that store charged in the
    /// ``productEvidenceSeconds`` before (it notifies that product's charges), and whose charge did not
    /// come before the store's notifications were seen arriving after the wait.
    public let uncharged: [Uncharged]

    /// An audit of nothing.
    public static let empty = GrantAudit(grants: [], charges: [], ledger: .empty, activity: .empty, rule: SLOPolicy.ReconciliationRule())

    /// How far before a grant the store must have notified a charge of its product for its notifications to
    /// count as covering that product: 7 days.
    public static let productEvidenceSeconds: Int64 = 7 * .secondsPerDay

    /// Joins `grants` with `charges`, the store's charge notifications naming their transactions (of any
    /// time: a grant is matched to its transaction's charge wherever it lies); `earlier` are the grants of
    /// the ``repeatSpanMillis`` before them, read only to find which of `grants` repeat one. `ledger` holds
    /// the charges of the time around the grants (when each store's notifications arrived), `activity` the
    /// stores' hourly charges per product of the week before them, and `rule` the stores and the wait of
    /// grants without a charge. What counts at a time then depends only on what was received by then.
    /// O(n log n).
    public init(
        grants: [GrantRecord], earlier: [GrantRecord] = [], charges: [ReceivedNotification], ledger: ChargeLedger,
        activity: StoreActivitySeries, rule: SLOPolicy.ReconciliationRule
    ) {
        var chargeOf: [String: ReceivedNotification] = [:]
        for charge in charges.sorted(by: { $0.receivedMillis < $1.receivedMillis }) where charge.notification.kind == .charge {
            guard let id = charge.notification.transactionID, chargeOf[id] == nil else { continue }
            chargeOf[id] = charge
        }
        let joined = GrantRecord.byTime(grants).map { record in
            let charge = chargeOf.isEmpty ? nil : chargeOf[record.transactionID]
            return Grant(record: record, store: charge?.notification.store ?? Store(platform: record.platform), charge: charge)
        }
        self.grants = joined
        repeats = Self.repeats(of: joined, after: GrantRecord.byTime(earlier))
        let receipts = Dictionary(grouping: ledger.charges, by: \.notification.store).mapValues { $0.map(\.receivedMillis).sorted() }
        let wait = rule.chargeWaitSeconds * .millisPerSecond
        uncharged = joined.compactMap { grant in
            guard let store = grant.store, rule.chargeNotifyingStores.contains(store), let received = receipts[store] else { return nil }
            let next = received.firstIndex(millis: { $0 }, notBefore: grant.record.millis + wait)
            guard next < received.count else { return nil }
            let arriving = received[next]
            let until = grant.charge?.receivedMillis ?? .max
            guard arriving < until else { return nil }
            let seconds = grant.record.millis.floorDividedBy(.millisPerSecond).quotient
            let key = StoreActivitySeries.Key(store: store, productID: grant.record.productID)
            guard activity.counts(key, from: seconds - Self.productEvidenceSeconds, to: seconds + 1).charges > 0 else { return nil }
            return Uncharged(grant: grant, fromMillis: arriving, untilMillis: until)
        }
    }
}

extension GrantAudit {
    /// The grants of `grants` (by time) whose transaction a grant of the ``repeatSpanMillis`` before
    /// it granted, among `earlier` (by time, all before `grants`) and `grants`, each with the earliest
    /// such grant. O(n): each transaction's grants are chained, and its earliest within the span only
    /// moves forward (a receipt replayed thousands of times costs no more than as many first grants).
    /// `hashing` keys the chains (the ids' own hash; a test makes ids meet).
    package static func repeats(
        of grants: [Grant], after earlier: [GrantRecord], hashing: (String) -> Int = { $0.hashValue }
    ) -> [Repeat] {
        let count = earlier.count + grants.count
        // Times apart from the records: the walk reads them often and copies no record.
        var millis: [Int64] = []
        millis.reserveCapacity(count)
        millis += earlier.lazy.map(\.millis)
        millis += grants.lazy.map(\.record.millis)
        func transactionID(at index: Int) -> String {
            index < earlier.count ? earlier[index].transactionID : grants[index - earlier.count].record.transactionID
        }
        // Chains keyed by the hash of their transaction id: a dictionary of ids compares ids along each
        // probe (most are of one length, compared byte by byte), one of hashes compares numbers. An id whose
        // hash another id's chain holds (checked on every hit) has its chain by id.
        var chains: [Int: (earliest: Int, latest: Int)] = [:]
        chains.reserveCapacity(count)
        var collided: [String: (earliest: Int, latest: Int)] = [:]
        var next = [Int](repeating: -1, count: count)
        /// Adds grant `index` to its transaction's chain (new when `latest` is -1); returns the chain's
        /// earliest grant within the span before it.
        func extend(_ chain: inout (earliest: Int, latest: Int), with index: Int) -> Int {
            guard chain.latest >= 0 else {
                chain.latest = index
                return index
            }
            next[chain.latest] = index
            chain.latest = index
            while millis[index] - millis[chain.earliest] > repeatSpanMillis { chain.earliest = next[chain.earliest] }
            return chain.earliest
        }
        /// Adds grant `index`, of transaction `id`, to its chain; returns the chain's earliest grant within the span.
        func add(_ index: Int, id: String) -> Int {
            let hash = hashing(id)
            if let held = chains[hash], transactionID(at: held.latest) != id {
                return extend(&collided[id, default: (index, -1)], with: index)
            }
            return extend(&chains[hash, default: (index, -1)], with: index)
        }
        for index in earlier.indices { _ = add(index, id: earlier[index].transactionID) }
        var repeats: [Repeat] = []
        for offset in grants.indices {
            let index = earlier.count + offset
            let earliest = add(index, id: grants[offset].record.transactionID)
            if earliest != index {
                let first = earliest < earlier.count ? earlier[earliest] : grants[earliest - earlier.count].record
                repeats.append(Repeat(grant: grants[offset], first: first))
            }
        }
        return repeats
    }
}

extension Store {
    /// The store of an app platform: Apple's for iOS, iPadOS, macOS, tvOS, watchOS and visionOS; Google
    /// Play for Android; nil for any other or none.
    public init?(platform: String?) {
        guard let platform else { return nil }
        /// Whether `platform` is `name` (lower case ASCII) in any case: its bytes compared with the ASCII case
        /// bit set, which a grant audit does for every grant (no other text lowercases to these names).
        func isNamed(_ name: StaticString) -> Bool {
            name.utf8CodeUnitCount == platform.utf8.count
                && name.withUTF8Buffer { name in zip(name, platform.utf8).allSatisfy { $0 == $1 | 0x20 } }
        }
        if ["ios", "ipados", "macos", "tvos", "watchos", "visionos"].contains(where: isNamed) {
            self = .apple
        } else if isNamed("android") {
            self = .google
        } else {
            return nil
        }
    }
}

extension GrantAudit {
    /// The repeated grants made in `[from, through]` (milliseconds), by time. O(log n).
    public func repeats(from: Int64, through: Int64) -> ArraySlice<Repeat> {
        repeats.timeSlice(millis: \.grant.record.millis, from: from, through: through)
    }

    /// The grants made in `[from, through]` (milliseconds) among all, by time. O(log n).
    public func grants(from: Int64, through: Int64) -> ArraySlice<Grant> {
        grants.timeSlice(millis: \.record.millis, from: from, through: through)
    }

    /// The grants made in `[from, through]` (milliseconds) that are without a charge at `now`
    /// (``uncharged``: the wait has passed and the store's notifications kept arriving, and no charge was
    /// received by then). O(log n + such grants in the range).
    public func withoutCharge(from: Int64, through: Int64, at now: Int64) -> [Grant] {
        uncharged.timeSlice(millis: \.grant.record.millis, from: from, through: through).filter { $0.fromMillis <= now && now < $0.untilMillis }
            .map(\.grant)
    }
}
