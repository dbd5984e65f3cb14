import PurchaseSLICore

/// How an alert's cost is counted, as its evidence says (``AlertEvidence/costMeasure``).
public enum AlertCostMeasure: Sendable, Hashable {
    /// The successes its action and slice lost against their usual rate (``LostPurchases``): alerts about
    /// the rate of events.
    case lostSuccesses
    /// The store charges it names that were taken and not granted, in full.
    case ungrantedCharges(ChargeTally)
    /// The store refunds and revocations of its product, in full.
    case refunds
    /// The grants it names that no charge paid for (granted again, or never charged), in full.
    case unpaidGrants(ChargeTally)
}

/// Store charges or refunds counted in full: how many, and their amounts per currency.
public struct ChargeTally: Sendable, Hashable, Codable {
    /// How many.
    public var count: Int
    /// Their amounts per currency (charges the store gave a price for).
    public var worth: [String: Double]

    /// A tally of `count` charges worth `worth`.
    public init(count: Int, worth: [String: Double]) {
        self.count = count
        self.worth = worth.filter { $0.value != 0 }
    }

    /// The tally of `charges`, each at the price its notification gave.
    public init(_ charges: [ChargeLedger.Charge]) {
        var worth: [String: Double] = [:]
        for charge in charges {
            if let price = charge.notification.price, let currency = charge.notification.currency { worth[currency, default: 0] += price }
        }
        self.init(count: charges.count, worth: worth)
    }
}

/// What an alert or an incident cost so far: per action, the attempts that failed and would have
/// succeeded at the usual rate (estimated, with an interval), and the money charged and not delivered or
/// refunded (counted in full, charge by charge). Amounts stay per currency: they are never summed across
/// currencies.
public struct AlertCost: Sendable, Hashable, Codable {
    /// Lost successes per action (purchase, restore, retry), estimated.
    public var lost: [String: LostPurchases]
    /// Charges taken and not granted, in full; nil when the alert is not about charges.
    public var ungranted: ChargeTally?
    /// Transactions retried and never granted (a renewal or a purchase charged and not delivered, however
    /// often retried), each once at its product's price; nil when the cost is not about retries.
    public var retriedNotGranted: ChargeTally?
    /// Refunds and revocations, in full; nil when the alert is not about refunds.
    public var refunded: ChargeTally?
    /// The refunds the alert saw that gave back charges never granted: not in ``refunded``, as those
    /// charges are counted as taken and not granted (by this incident or another); nil when none.
    public var refundsOfChargesNeverGranted: Int?
    /// Grants no charge paid for (double grants, grants without a charge), in full; nil when the alert is
    /// not about grants.
    public var givenAway: ChargeTally?

    /// A cost of these parts.
    public init(lost: [String: LostPurchases] = [:], ungranted: ChargeTally? = nil, refunded: ChargeTally? = nil, givenAway: ChargeTally? = nil) {
        self.lost = lost
        self.ungranted = ungranted
        self.refunded = refunded
        self.givenAway = givenAway
    }

    /// Whether nothing is counted at all (no estimate could be made and no charge is named).
    public var isEmpty: Bool { lost.isEmpty && ungranted == nil && retriedNotGranted == nil && refunded == nil && givenAway == nil }

    /// The money per currency of every part: the estimated worth of lost purchases plus the charges and
    /// refunds in full.
    public var worth: [String: Double] {
        var total: [String: Double] = [:]
        for estimate in lost.values { total.merge(estimate.worth, uniquingKeysWith: +) }
        for tally in [ungranted, retriedNotGranted, refunded, givenAway].compactMap({ $0 }) { total.merge(tally.worth, uniquingKeysWith: +) }
        return total.filter { $0.value > 0.005 }
    }

    /// The actions of ``lost`` in the order purchase, restore, retry, then any other by name.
    var lostActions: [String] { lost.keys.sorted(by: ActionType.isListedBefore) }

    /// "≈ 57 purchases (41–73) that would have succeeded, ≈ 56.43 USD; 3 charges taken and not granted,
    /// 14.97 USD (in full): ≈ 71.40 USD in all" (without what the estimates were measured against).
    public func summary() -> AlertText {
        var parts = lostActions.map { lost[$0]!.summary(of: $0) }
        if let ungranted {
            parts.append(
                "\(count: Int64(ungranted.count)) \(words: ungranted.count == 1 ? "charge" : "charges") taken and not granted"
                    + Self.inFull(ungranted))
        }
        if let retriedNotGranted, retriedNotGranted.count > 0 {
            parts.append(
                "\(count: Int64(retriedNotGranted.count)) \(words: retriedNotGranted.count == 1 ? "transaction" : "transactions") "
                    + "retried and never granted" + Self.inFull(retriedNotGranted))
        }
        // Refunds of charges already counted as not granted are in that count: none beside them is not said.
        let neverGranted = refundsOfChargesNeverGranted ?? 0
        if let refunded, refunded.count == 0, neverGranted > 0 {
            parts.append(
                "\(count: Int64(neverGranted)) \(words: neverGranted == 1 ? "refund" : "refunds"), all of charges never granted "
                    + "(counted as charges taken and not granted, not twice)")
        } else if let refunded, refunded.count > 0 || ungranted == nil {
            var part: AlertText = "\(count: Int64(refunded.count)) \(words: refunded.count == 1 ? "refund" : "refunds")" + Self.inFull(refunded)
            if neverGranted > 0 {
                part = part + " beside \(count: Int64(neverGranted)) of charges never granted (counted as charges taken and not granted)"
            }
            parts.append(part)
        }
        if let givenAway {
            parts.append(
                "\(count: Int64(givenAway.count)) \(words: givenAway.count == 1 ? "grant" : "grants") given away (not paid for)"
                    + Self.inFull(givenAway))
        }
        var text = AlertText.joined(parts, separator: "; ")
        let priced =
            lost.values.filter { !$0.worth.isEmpty }.count
            + [ungranted, retriedNotGranted, refunded, givenAway].filter { !($0?.worth.isEmpty ?? true) }.count
        if priced > 1, let amounts = AlertText.amounts(worth) { text = text + ": ≈ " + amounts + " in all" }
        return text
    }

    /// ", 14.97 USD (in full)", or " (in full)" without a known price.
    private static func inFull(_ tally: ChargeTally) -> AlertText {
        (AlertText.amounts(tally.worth).map { ", " + $0 } ?? "") + " (in full)"
    }

    /// " (estimated against the same hours of the previous 7 days)": what the estimates were measured
    /// against, or nothing without an estimate.
    public var basisText: AlertText {
        let against: [AlertText] = Set(lost.values.map(\.basis)).sorted { "\($0)" < "\($1)" }.map { basis in
            switch basis {
            case .previousDays(let days): "the same hours of the previous \(count: Int64(days)) days"
            case .objective(let target): "the \(percent: target) objective (the previous days hold too few events)"
            }
        }
        return against.isEmpty ? "" : " (estimated against " + AlertText.joined(against, separator: " and ") + ")"
    }

    /// "cost so far: " and the ``summary()`` and ``basisText``; "cost:" once the alert is over (`isOver`);
    /// `whose` before it ("incident cost so far:").
    public func text(isOver: Bool, whose: String = "") -> AlertText {
        "\(words: whose + (isOver ? "cost" : "cost so far")): " + summary() + basisText
    }
}
