public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// An alert's or an incident's cost as JSON: amounts per currency rounded to the cent and never summed
/// across currencies. `lost` is per action `{"purchases", "low", "high", "unpriced", "basis", "worth"}`;
/// "ungranted", "refunded", "retriedNotGranted" and "givenAway" are each `{"count", "worth"}` or null when
/// the cost is not about them; "refundsOfChargesNeverGranted" the refunds left out of "refunded" as their
/// charges count as not granted, or null; "worth" every part's money; "text" ``AlertCost/text(isOver:)``
/// for a terminal. `basis` is `{"previousDays": N}` or `{"objective": TARGET}`; `unpriced` counts the lost
/// purchases of products without a known price, which no `worth` holds.
public struct AlertCostJSON: Encodable, Sendable {
    /// The purchases an action lost, the range they may lie in, and what they were worth.
    public struct Lost: Encodable, Sendable {
        /// How the purchases that would have succeeded were estimated.
        public enum Basis: Encodable, Sendable {
            /// From the success rate of the previous days.
            case previousDays(Int)
            /// From the objective's success rate.
            case objective(Double)

            /// `{"previousDays": N}` or `{"objective": TARGET}`.
            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: JSONKey.self)
                switch self {
                case .previousDays(let days): try container.encode(days, forKey: JSONKey("previousDays"))
                case .objective(let target): try container.encode(target, forKey: JSONKey("objective"))
                }
            }
        }

        let purchases: Double
        let low: Double
        let high: Double
        let unpriced: Double
        let basis: Basis
        let worth: JSONMembers<Double>
    }

    let lost: JSONMembers<Lost>
    let ungranted: ChargeTallyJSON?
    let refunded: ChargeTallyJSON?
    let retriedNotGranted: ChargeTallyJSON?
    let refundsOfChargesNeverGranted: Int?
    let givenAway: ChargeTallyJSON?
    let worth: JSONMembers<Double>
    let text: String

    /// The cost of an alert or incident; `isOver` says whether it has ended (the text's tense).
    public init(_ cost: AlertCost, isOver: Bool) {
        lost = JSONMembers(
            cost.lost.sorted { ActionType.isListedBefore($0.key, $1.key) }.map { action, estimate in
                let basis: Lost.Basis =
                    switch estimate.basis {
                    case .previousDays(let days): .previousDays(days)
                    case .objective(let target): .objective(target)
                    }
                return (
                    action,
                    Lost(
                        purchases: (estimate.purchases * 10).rounded() / 10, low: estimate.interval.lowerBound.rounded(),
                        high: estimate.interval.upperBound.rounded(), unpriced: (estimate.unpriced * 10).rounded() / 10, basis: basis,
                        worth: .worth(estimate.worth))
                )
            })
        ungranted = cost.ungranted.map(ChargeTallyJSON.init)
        refunded = cost.refunded.map(ChargeTallyJSON.init)
        retriedNotGranted = cost.retriedNotGranted.map(ChargeTallyJSON.init)
        refundsOfChargesNeverGranted = cost.refundsOfChargesNeverGranted
        givenAway = cost.givenAway.map(ChargeTallyJSON.init)
        worth = .worth(cost.worth)
        text = cost.text(isOver: isOver).rendered(.terminal)
    }
}

/// `{"count": N, "worth": {CURRENCY: AMOUNT}}`: charges and what they are worth.
public struct ChargeTallyJSON: Encodable, Sendable {
    let count: Int
    let worth: JSONMembers<Double>

    /// The tally's count and worth.
    public init(_ tally: ChargeTally) {
        count = tally.count
        worth = .worth(tally.worth)
    }
}

extension JSONMembers where Value == Double {
    /// Amounts per currency as a JSON object, by currency, each rounded to the cent: `{"USD":99.8}`.
    public static func worth(_ worth: [String: Double]) -> Self {
        JSONMembers(worth.sorted { $0.key < $1.key }.map { ($0.key, ($0.value * 100).rounded() / 100) })
    }
}
