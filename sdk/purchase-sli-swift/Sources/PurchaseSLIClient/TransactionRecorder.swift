public import Foundation

/// One transaction StoreKit delivered, with what the app does with it: the grant (the app's call to its
/// grant server), finishing it, and what it does when the store revoked it.
public struct DeliveredTransaction: Sendable {
    /// The transaction, as a plain value.
    public var transaction: StoreTransaction
    /// Asks the app's grant server to grant it.
    public var grant: @Sendable () async -> GrantAnswer
    /// Finishes it in StoreKit (`Transaction.finish()`).
    public var finish: @Sendable () async -> Void
    /// Tells the app that the store refunded or revoked it (the app takes the entitlement back).
    public var revoked: @Sendable () async -> Void

    /// A delivery; `revoked` does nothing unless given.
    public init(
        _ transaction: StoreTransaction, grant: @escaping @Sendable () async -> GrantAnswer, finish: @escaping @Sendable () async -> Void,
        revoked: @escaping @Sendable () async -> Void = {}
    ) {
        self.transaction = transaction
        self.grant = grant
        self.finish = finish
        self.revoked = revoked
    }
}

/// Records the transactions StoreKit delivers outside the app's purchase calls as attempts: each
/// delivery once, granted through the app's grant call, finished only once granted (a 2xx, or a 409:
/// granted before), never while the app's own purchase call handles it. What ``StoreKitObserver`` runs
/// on Apple's systems; tests give it StoreKit-shaped values.
public final class TransactionRecorder: Sendable {
    private let sli: PurchaseSLI
    private let handled = Locked(HandledTransactions())

    /// A recorder that records to `sli`.
    public init(sli: PurchaseSLI) { self.sli = sli }

    /// Handles every delivery of `deliveries` in turn, until the sequence ends (or the task is cancelled):
    /// one failing grant never stops the ones after it (the renewals piled up at launch are all sent).
    /// - Returns: how many deliveries ended which way.
    @discardableResult
    public func handleAll<Deliveries: AsyncSequence>(_ deliveries: Deliveries, from source: TransactionSource) async -> TransactionPass
    where Deliveries.Element == DeliveredTransaction {
        var pass = TransactionPass()
        do {
            for try await delivery in deliveries {
                pass.count(await handle(delivery, from: source))
            }
        } catch {
            sli.configuration.log?("purchase-sli: \(source.rawValue) ended with an error: \(error)")
        }
        return pass
    }

    /// Handles one delivery: records it as an attempt of ``TransactionSource`` `source`'s action with the
    /// transaction's id, product, subscription group, offer, price and appAccountToken (what the store
    /// ledger joins on), unless a purchase call in progress handles it or it was handled already.
    public func handle(_ delivery: DeliveredTransaction, from source: TransactionSource) async -> TransactionHandling {
        let transaction = delivery.transaction
        if transaction.revocationDate != nil {
            await delivery.revoked()
            return .revoked
        }
        if sli.attemptsInFlight.covers(productID: transaction.productID, appAccountToken: transaction.appAccountToken) {
            return .inPurchaseCall
        }
        guard handled.withLock({ $0.begin(transaction.id) }) else { return .alreadyHandled }
        let attempt = sli.begin(start: Self.start(of: transaction, from: source), tracked: false)
        let outcome: SLIOutcome
        if transaction.isVerified {
            outcome = SLIOutcome(storeKit: .success(verified: true, transactionID: String(transaction.id)), grant: await delivery.grant())
        } else {
            outcome = SLIOutcome(storeKit: .success(verified: false, transactionID: String(transaction.id)), grant: nil)
        }
        let granted = outcome.isGrant
        if granted { await delivery.finish() }
        await attempt.finish(outcome)
        handled.withLock { $0.end(transaction.id, finished: granted) }
        return .recorded(outcome, finished: granted)
    }

    /// Records a purchase the customer started on the App Store (`PurchaseIntent`) as a `purchase` attempt
    /// bought with `appAccountToken`: `purchase` is the app's purchase of the product (when the app is
    /// ready for it); a success is granted through the delivery's grant and finished once granted; pending
    /// stays pending, a cancel a cancel, a StoreKit error a failure named after it. While it runs, the same
    /// transaction delivered to `Transaction.updates` is left to it.
    public func handleIntent(
        productID: String, offerID: String?, appAccountToken: UUID, purchase: @Sendable () async -> IntentPurchaseResult
    ) async -> TransactionHandling {
        var start = SLIEvent(productID: productID, actionType: .purchase, resultType: .start)
        start.offerID = offerID
        start.appAccountToken = appAccountToken.uuidString.lowercased()
        start.resultDescription = "a purchase started on the App Store (PurchaseIntent)"
        let attempt = sli.begin(start: start, tracked: true)
        switch await purchase() {
        case .success(let delivery):
            let transaction = delivery.transaction
            let transactionID = String(transaction.id)
            _ = handled.withLock { $0.begin(transaction.id) }
            let outcome = SLIOutcome(
                storeKit: .success(verified: transaction.isVerified, transactionID: transactionID),
                grant: transaction.isVerified ? await delivery.grant() : nil)
            if outcome.isGrant { await delivery.finish() }
            await attempt.finish(outcome, transactionID: transactionID)
            handled.withLock { $0.end(transaction.id, finished: outcome.isGrant) }
            return .recorded(outcome, finished: outcome.isGrant)
        case .userCancelled:
            await attempt.finish(.cancel)
            return .recorded(.cancel, finished: false)
        case .pending:
            await attempt.finish(.pending)
            return .recorded(.pending, finished: false)
        case .failed(let error):
            let outcome = SLIOutcome(storeKitError: error)
            await attempt.finish(outcome)
            return .recorded(outcome, finished: false)
        case .failedOtherwise(let description):
            await attempt.finish(.failure(error: description))
            return .recorded(.failure(error: description), finished: false)
        }
    }

    /// The start event of a delivered transaction's attempt.
    static func start(of transaction: StoreTransaction, from source: TransactionSource) -> SLIEvent {
        var start = SLIEvent(productID: transaction.productID, actionType: source.action, resultType: .start)
        (start.groupID, start.offerID) = (transaction.subscriptionGroupID, transaction.offerID)
        start.transactionID = String(transaction.id)
        start.appAccountToken = transaction.appAccountToken?.uuidString.lowercased()
        start.price = transaction.price.map { NSDecimalNumber(decimal: $0).doubleValue }
        start.currency = transaction.currency
        start.resultDescription = description(of: transaction, from: source)
        return start
    }

    /// What brought the transaction, in words, for the events' `resultDescription`.
    static func description(of transaction: StoreTransaction, from source: TransactionSource) -> String {
        let what =
            switch (transaction.reason, transaction.isFamilyShared) {
            case (.renewal?, _): "a renewal"
            case (_, true): "a purchase shared by a family member"
            case (.purchase?, false): "a purchase made outside the purchase call (Ask to Buy approved, another device, an offer code)"
            case (nil, false): "a transaction"
            }
        return source == .updates ? "\(what), from Transaction.updates" : "\(what) left unfinished, sent again (Transaction.unfinished)"
    }
}

/// How many deliveries of a pass ended which way.
public struct TransactionPass: Sendable, Hashable {
    /// Recorded and granted (2xx or 409), then finished.
    public var granted = 0
    /// Recorded with another outcome (a failed grant, an unverified signature): left unfinished, retried later.
    public var notGranted = 0
    /// Left to a purchase call in progress, handled already, or revoked.
    public var skipped = 0

    mutating func count(_ handling: TransactionHandling) {
        switch handling {
        case .recorded(_, finished: true): granted += 1
        case .recorded(_, finished: false): notGranted += 1
        case .inPurchaseCall, .alreadyHandled, .revoked: skipped += 1
        }
    }
}

/// The transactions being handled and the last ones finished, so that a transaction delivered twice (by
/// `Transaction.updates` and `Transaction.unfinished` at launch) is recorded once; one whose grant failed
/// may be handled again (the next retry).
struct HandledTransactions {
    /// Finished transactions remembered: far more than a launch's backlog.
    static let finishedRemembered = 1000
    private var inProgress: Set<UInt64> = []
    private var finished: Set<UInt64> = []
    private var finishedOrder: [UInt64] = []

    /// Whether `id` may be handled now (and marks it in progress).
    mutating func begin(_ id: UInt64) -> Bool {
        guard !inProgress.contains(id), !finished.contains(id) else { return false }
        inProgress.insert(id)
        return true
    }

    /// Marks `id` handled: remembered when finished, free to be handled again when not.
    mutating func end(_ id: UInt64, finished wasFinished: Bool) {
        inProgress.remove(id)
        guard wasFinished else { return }
        finished.insert(id)
        finishedOrder.append(id)
        if finishedOrder.count > Self.finishedRemembered {
            finished.remove(finishedOrder.removeFirst())
        }
    }
}
