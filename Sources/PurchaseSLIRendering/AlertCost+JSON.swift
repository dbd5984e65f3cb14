public import PurchaseSLIAnalysis
import PurchaseSLICore

extension AlertCost {
    /// The cost as one JSON object, amounts per currency rounded to the cent and never summed across
    /// currencies: `{"lost": {ACTION: {"purchases", "low", "high", "unpriced", "basis", "worth"}},
    /// "ungranted", "retriedNotGranted", "refunded", "givenAway" (each `{"count", "worth"}` or null when the cost is not about
    /// them), "refundsOfChargesNeverGranted" (the refunds left out of "refunded" as their charges count as
    /// not granted, or null), "worth" (every part's money), "text" (``text(isOver:)`` for a terminal)}`. `basis` is
    /// `{"previousDays": N}` or `{"objective": TARGET}`; `unpriced` counts the lost purchases of products
    /// without a known price, which no `worth` holds.
    public func json(isOver: Bool) -> String {
        let lost = lost.sorted { ActionType.isListedBefore($0.key, $1.key) }.map { action, estimate -> String in
            let basis: String =
                switch estimate.basis {
                case .previousDays(let days): "{\"previousDays\":\(days)}"
                case .objective(let target): "{\"objective\":\(JSONText.number(target))}"
                }
            return "\(JSONText.quoted(action)):{\"purchases\":\(JSONText.number((estimate.purchases * 10).rounded() / 10)),"
                + "\"low\":\(JSONText.number(estimate.interval.lowerBound.rounded())),\"high\":\(JSONText.number(estimate.interval.upperBound.rounded())),"
                + "\"unpriced\":\(JSONText.number((estimate.unpriced * 10).rounded() / 10)),\"basis\":\(basis),\"worth\":\(Self.json(worth: estimate.worth))}"
        }
        func tally(_ tally: ChargeTally?) -> String { tally.map(\.json) ?? "null" }
        return "{\"lost\":{\(lost.joined(separator: ","))},\"ungranted\":\(tally(ungranted)),\"refunded\":\(tally(refunded)),"
            + "\"retriedNotGranted\":\(tally(retriedNotGranted)),\"refundsOfChargesNeverGranted\":\(refundsOfChargesNeverGranted.map(String.init) ?? "null"),"
            + "\"givenAway\":\(tally(givenAway)),\"worth\":\(Self.json(worth: worth)),"
            + "\"text\":\(JSONText.quoted(text(isOver: isOver).rendered(.terminal)))}"
    }

    /// Amounts per currency as a JSON object, by currency, each rounded to the cent: `{"USD":99.8}`.
    public static func json(worth: [String: Double]) -> String {
        "{"
            + worth.sorted { $0.key < $1.key }.map { "\(JSONText.quoted($0.key)):\(JSONText.number(($0.value * 100).rounded() / 100))" }
            .joined(separator: ",") + "}"
    }
}

extension ChargeTally {
    /// `{"count": N, "worth": {CURRENCY: AMOUNT}}`.
    public var json: String { "{\"count\":\(count),\"worth\":\(AlertCost.json(worth: worth))}" }
}
