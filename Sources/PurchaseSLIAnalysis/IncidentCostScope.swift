public import PurchaseSLICore

/// What an incident's cost is counted over, taken from its alerts once: the stretch from its first bad
/// minute to its end, the events whose lost successes count (per action, the union of its alerts' slices
/// when all are of one dimension, else the whole action), and the store and product of the charges,
/// refunds and grants its money alerts named. Stored with the incident's record, so that its cost can be
/// taken again as grants, refunds and settlements arrive without evaluating its alerts again.
public struct IncidentCostScope: Sendable, Hashable, Codable {
    /// A store and product that a money alert named (nil: the alert named none).
    public struct ChargeKey: Sendable, Hashable, Comparable, Codable {
        /// The store (`apple`, `google`).
        public var store: String?
        /// The product.
        public var product: String?

        /// The key of `store` and `product`.
        public init(store: String?, product: String?) {
            self.store = store
            self.product = product
        }

        /// By store, then product.
        public static func < (lhs: ChargeKey, rhs: ChargeKey) -> Bool {
            (lhs.store ?? "", lhs.product ?? "") < (rhs.store ?? "", rhs.product ?? "")
        }
    }

    /// The events of one action whose lost successes count.
    public struct EventScope: Sendable, Hashable, Codable {
        /// The dimension its alerts sliced by, or nil for the whole action.
        public var dimension: EventDimension?
        /// The values of that dimension (nil: events without one), sorted.
        public var values: [String?]

        /// A scope of `values` of `dimension`.
        public init(dimension: EventDimension?, values: [String?]) {
            self.dimension = dimension
            self.values = values
        }

        /// The count filters of `action`'s events in this scope.
        public func filters(of action: String) -> [EventDimension: Set<String?>] {
            var filters: [EventDimension: Set<String?>] = [.actionType: [action]]
            if let dimension { filters[dimension] = Set(values) }
            return filters
        }
    }

    /// The incident's first bad minute: where its cost starts.
    public var fromSeconds: Int64
    /// When its last alert stopped, or nil while one fires: where its cost ends.
    public var endsAt: Int64?
    /// Per action, the events whose successes lost count.
    public var lostSuccesses: [String: EventScope]
    /// The charges its ChargedNotGranted alerts named.
    public var ungrantedCharges: Set<ChargeKey>
    /// The refunds its refund alerts named.
    public var refunds: Set<ChargeKey>
    /// The grants its DoubleGrant alerts named.
    public var doubleGrants: Set<ChargeKey>
    /// The grants its GrantedWithoutCharge alerts named.
    public var grantsWithoutCharge: Set<ChargeKey>

    /// The scope of `incident`'s cost, from the first, peak and latest finding of each of its alerts.
    public init(_ incident: Incident) {
        fromSeconds = incident.firstBadSeconds
        endsAt = incident.endsAt
        let findings = incident.episodes.flatMap { [$0.first, $0.peak, $0.latest] }
        var ungranted = Set<ChargeKey>()
        var refunds = Set<ChargeKey>()
        var doubleGrants = Set<ChargeKey>()
        var withoutCharge = Set<ChargeKey>()
        for finding in findings {
            let key = ChargeKey(store: finding.labels.store, product: finding.labels.slice?.value)
            switch finding.evidence.costMeasure {
            case .ungrantedCharges: ungranted.insert(key)
            case .refunds: refunds.insert(key)
            case .unpaidGrants where finding.kind == .doubleGrant: doubleGrants.insert(key)
            case .unpaidGrants where finding.kind == .grantedWithoutCharge: withoutCharge.insert(key)
            case .lostSuccesses, .unpaidGrants, nil: break
            }
        }
        let rateAlerts = findings.filter { $0.evidence.costMeasure == .lostSuccesses }
        lostSuccesses = Dictionary(grouping: rateAlerts, by: \.labels.actionType).mapValues { alerts in
            let slices = Set(alerts.map(\.labels.slice))
            guard let dimension = slices.first??.dimension, slices.allSatisfy({ $0?.dimension == dimension }) else {
                return EventScope(dimension: nil, values: [])
            }
            return EventScope(dimension: dimension, values: slices.compactMap { $0?.value }.sorted())
        }
        self.ungrantedCharges = ungranted
        self.refunds = refunds
        self.doubleGrants = doubleGrants
        self.grantsWithoutCharge = withoutCharge
    }

    /// Where its cost ends when read at `time`: its end, or `time` while it goes on.
    public func until(at time: Int64) -> Int64 { min(time, endsAt ?? time) }
}
