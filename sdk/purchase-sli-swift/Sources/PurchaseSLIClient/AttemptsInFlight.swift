import Foundation

/// The purchase attempts begun and not finished, so that a transaction StoreKit also delivers to
/// `Transaction.updates` or `Transaction.unfinished` while the purchase call handles it is left to that call
/// (recording it twice would count one purchase as two, and sending its receipt twice makes 409s).
final class AttemptsInFlight: Sendable {
    /// How long an attempt counts as in flight: one never finished (the app forgot) stops covering after it.
    static let lifetime: TimeInterval = 3600

    private struct Attempt {
        let productID: String
        let appAccountToken: UUID?
        let began: Date
    }

    private let attempts = Locked<[String: Attempt]>([:])

    /// Notes an attempt, by its start event's id.
    func begin(_ eventID: String, productID: String, appAccountToken: UUID?, at time: Date) {
        attempts.withLock { $0[eventID] = Attempt(productID: productID, appAccountToken: appAccountToken, began: time) }
    }

    /// Forgets an attempt once it finished.
    func end(_ eventID: String) {
        _ = attempts.withLock { $0.removeValue(forKey: eventID) }
    }

    /// Whether an attempt in flight covers a transaction: the same appAccountToken, or, when either has
    /// none, the same product.
    func covers(productID: String, appAccountToken: UUID?, now: Date = Date()) -> Bool {
        attempts.withLock { attempts in
            attempts = attempts.filter { now.timeIntervalSince($0.value.began) < Self.lifetime }
            return attempts.values.contains { attempt in
                if let token = appAccountToken, let attemptToken = attempt.appAccountToken { return token == attemptToken }
                return attempt.productID == productID
            }
        }
    }
}
