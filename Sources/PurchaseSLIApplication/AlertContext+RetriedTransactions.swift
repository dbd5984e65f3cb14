import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIStorage

/// A transaction whose retries failed in an incident and that no event granted since: a renewal or a
/// purchase the store charged and the app never delivered.
struct RetriedTransaction {
    /// When its first retry failed in the incident (milliseconds).
    var firstFailureMillis: Int64
    /// Its product, as its first failed retry named it.
    var productID: String
    /// Its plan, as its first failed retry named it.
    var planID: String?
    /// Its product's and plan's known price, else its product's, or nil.
    var price: ProductPrice?
}

extension AlertContext {
    /// The transactions retried and never granted by `time` (``RetriedTransaction``) among the events of
    /// `filters` (an action's scope in an incident) over `[from, until)`, priced each once at its product's
    /// and plan's known price (``PurchaseStore/knownPrices(before:for:)``): what a retry outage cost, per
    /// transaction however many times it was retried, where the lost retries' estimate is not priced. Nil
    /// when the scope is a slice the events' reports do not name (an app version, a platform): those
    /// transactions cannot be told apart.
    ///
    /// A transaction counts when a retry of it failed in the span and no event granted it from a day before
    /// the span to `time`; one an event also tried to purchase in the span is left to the lost purchases'
    /// estimate when the incident counts one (`purchasesEstimated`), and one in `counted` (the store charges
    /// counted as not granted, by key hash) is counted there.
    func retriedNotGranted(
        filters: [EventDimension: Set<String?>], from: Int64, until: Int64, at time: Int64, purchasesEstimated: Bool, counted: Set<Int64>
    ) async throws -> (tally: ChargeTally, transactions: [RetriedTransaction])? {
        let told: Set<EventDimension> = [.actionType, .productID, .planID]
        guard Set(filters.keys).isSubset(of: told) else { return nil }
        func matches(_ outcome: ReportedOutcome) async -> Bool {
            filters[.productID].map { $0.contains(outcome.productID) } ?? true
                && filters[.planID].map { $0.contains(outcome.planID) } ?? true
        }
        let retry = ActionType.retry.rawValue
        // The span and the day before it in full; after it, only the grants of the transactions that failed.
        var failed: [Int64: RetriedTransaction] = [:]
        var granted = Set<Int64>()
        var purchased = Set<Int64>()
        for outcome in try await store.reportedOutcomes(
            fromMillis: (from - .secondsPerDay) * .millisPerSecond, toMillis: until * .millisPerSecond, keyHashes: nil)
        {
            if outcome.firstGrantMillis.map({ $0 <= time * .millisPerSecond }) ?? false { granted.insert(outcome.keyHash) }
            guard outcome.millis >= from * .millisPerSecond else { continue }
            if outcome.actionType == ActionType.purchase.rawValue { purchased.insert(outcome.keyHash) }
            guard outcome.actionType == retry, outcome.result == .failure, await matches(outcome) else { continue }
            // The outcomes come in no particular order: the first failure names the product and plan.
            if let known = failed[outcome.keyHash], known.firstFailureMillis <= outcome.millis { continue }
            failed[outcome.keyHash] = RetriedTransaction(
                firstFailureMillis: outcome.millis, productID: outcome.productID, planID: outcome.planID)
        }
        if time > until, !failed.isEmpty {
            for outcome in try await store.reportedOutcomes(
                fromMillis: until * .millisPerSecond, toMillis: time * .millisPerSecond, keyHashes: Set(failed.keys))
            where outcome.firstGrantMillis.map({ $0 <= time * .millisPerSecond }) ?? false {
                granted.insert(outcome.keyHash)
            }
        }
        let lost = failed.filter { hash, _ in
            !granted.contains(hash) && !counted.contains(hash) && !(purchasesEstimated && purchased.contains(hash))
        }
        .sorted { ($0.value.firstFailureMillis, $0.key) < ($1.value.firstFailureMillis, $1.key) }.map(\.value)
        let prices = try await store.knownPrices(before: until * 1000, for: Set(lost.map { Optional($0.productID) }))
        var worth: [String: Double] = [:]
        let priced = lost.map { transaction in
            var transaction = transaction
            transaction.price =
                prices.first { $0.productID == transaction.productID && $0.planID == transaction.planID }
                ?? prices.first { $0.productID == transaction.productID }
            if let price = transaction.price { worth[price.currency, default: 0] += price.price }
            return transaction
        }
        return (ChargeTally(count: priced.count, worth: worth), priced)
    }
}
