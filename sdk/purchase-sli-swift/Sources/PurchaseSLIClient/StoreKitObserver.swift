#if canImport(StoreKit)
public import Foundation
public import StoreKit

/// Observes StoreKit 2 by itself, for apps that opt in: the transactions StoreKit delivers outside the
/// app's purchase calls are recorded as attempts with their outcome and appAccountToken (so the store
/// ledger joins them), granted through the app's grant call and finished once granted.
///
/// - `Transaction.updates` (action `update`): Ask to Buy approvals, purchases on another device, offer
///   codes redeemed, renewals completed in the background.
/// - `Transaction.unfinished` (action `retry`), at ``start()`` and on ``retryUnfinished()`` (call it when
///   the app returns to the foreground): every unfinished transaction, not only the first of a batch of renewals.
/// - `PurchaseIntent.intents` (action `purchase`), on ``observePurchaseIntents(appAccountToken:purchase:)``:
///   purchases customers start on the App Store.
///
/// A transaction the app's own purchase call handles (an attempt begun with the same appAccountToken or
/// product, not finished) is left to that call; one delivered twice is recorded once.
///
/// ```swift
/// let observer = StoreKitObserver(sli: sli) { transaction in
///     await grantServer.grant(transaction.jwsRepresentation)   // your server: .status(200), .status(409)…
/// }
/// observer.start()   // at launch, before anything else touches StoreKit
/// ```
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
public final class StoreKitObserver: Sendable {
    /// The app's grant of a transaction: its grant server's answer for `transaction.jwsRepresentation`.
    public typealias Grant = @Sendable (Transaction) async -> GrantAnswer

    private let recorder: TransactionRecorder
    private let grant: Grant
    private let revoked: @Sendable (Transaction) async -> Void
    /// The observing tasks, and whether ``start()`` started its two. The tasks hold no reference to the
    /// observer, so that it stops when the app lets it go.
    private let tasks = Locked((started: false, running: [Task<Void, Never>]()))

    /// An observer recording to `sli`; `grant` asks the app's grant server, `revoked` takes back what
    /// the store refunded or revoked (revocations are not attempts: they are not recorded).
    public init(sli: PurchaseSLI, revoked: @escaping @Sendable (Transaction) async -> Void = { _ in }, grant: @escaping Grant) {
        recorder = TransactionRecorder(sli: sli)
        self.grant = grant
        self.revoked = revoked
    }

    deinit { stop() }

    /// Sends the unfinished transactions again and listens to `Transaction.updates` until ``stop()`` (or
    /// until the observer is let go); a second call does nothing.
    public func start() {
        let (recorder, grant, revoked) = (recorder, grant, revoked)
        tasks.withLock { tasks in
            guard !tasks.started else { return }
            tasks.started = true
            tasks.running += [
                Task { _ = await recorder.handleAll(Transaction.updates.map { Self.delivery($0, grant, revoked) }, from: .updates) },
                Task { _ = await Self.retryUnfinished(recorder, grant, revoked) },
            ]
        }
    }

    /// Sends every unfinished transaction again (`Transaction.unfinished`), each recorded as a `retry`
    /// attempt; one failing grant does not stop the others.
    /// - Returns: how many were granted, not granted, skipped.
    @discardableResult
    public func retryUnfinished() async -> TransactionPass {
        await Self.retryUnfinished(recorder, grant, revoked)
    }

    /// ``retryUnfinished()`` without the observer, for its own tasks (which hold no reference to it).
    private static func retryUnfinished(
        _ recorder: TransactionRecorder, _ grant: @escaping Grant, _ revoked: @escaping @Sendable (Transaction) async -> Void
    ) async -> TransactionPass {
        await recorder.handleAll(Transaction.unfinished.map { delivery($0, grant, revoked) }, from: .unfinished)
    }

    /// Stops observing.
    public func stop() {
        for task in tasks.withLock({ $0.running }) { task.cancel() }
    }

    /// A delivery of StoreKit's verification result: the transaction as a plain value, the app's grant
    /// and revocation handler, and StoreKit's finish.
    static func delivery(
        _ result: VerificationResult<Transaction>, _ grant: @escaping Grant, _ revoked: @escaping @Sendable (Transaction) async -> Void
    ) -> DeliveredTransaction {
        let transaction = result.unsafePayloadValue
        var value = StoreTransaction(transaction)
        if case .unverified = result { value.isVerified = false }
        return DeliveredTransaction(
            value, grant: { await grant(transaction) }, finish: { await transaction.finish() }, revoked: { await revoked(transaction) })
    }
}

#if !os(tvOS) && !os(watchOS) && !os(visionOS)
@available(iOS 16.4, macOS 14.4, *)
extension StoreKitObserver {
    /// Observes purchases customers start on the App Store (`PurchaseIntent.intents`: a promoted product, a
    /// win-back offer) until ``stop()``: each is a `purchase` attempt bought with `appAccountToken()`;
    /// `purchase` is the app's purchase when it is ready for it, with the options it needs, e.g.
    /// `try await intent.product.purchase(options: [.appAccountToken(token)])`. Pending is recorded as
    /// pending; a success is granted through the observer's grant and finished once granted.
    public func observePurchaseIntents(
        appAccountToken: @escaping @Sendable () async -> UUID = { UUID() },
        purchase: @escaping @Sendable (PurchaseIntent, UUID) async throws -> Product.PurchaseResult
    ) {
        let (recorder, grant, revoked) = (recorder, grant, revoked)
        let task = Task {
            for await intent in PurchaseIntent.intents {
                let token = await appAccountToken()
                var offerID: String?
                if #available(iOS 18.0, macOS 15.0, *) { offerID = intent.offer?.id }
                _ = await recorder.handleIntent(productID: intent.product.id, offerID: offerID, appAccountToken: token) {
                    do {
                        return Self.intentResult(try await purchase(intent, token), grant, revoked)
                    } catch {
                        return StoreKitErrorCase(error).map(IntentPurchaseResult.failed) ?? .failedOtherwise(String(describing: error))
                    }
                }
            }
        }
        tasks.withLock { $0.running.append(task) }
    }

    /// StoreKit's purchase result as the recorder takes it.
    private static func intentResult(
        _ result: Product.PurchaseResult, _ grant: @escaping Grant, _ revoked: @escaping @Sendable (Transaction) async -> Void
    ) -> IntentPurchaseResult {
        switch result {
        case .success(let verification): .success(delivery(verification, grant, revoked))
        case .userCancelled: .userCancelled
        case .pending: .pending
        @unknown default: .pending
        }
    }
}
#endif

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension StoreTransaction {
    /// StoreKit's transaction as a plain value (its reason from iOS 17, its offer from iOS 17.2).
    public init(_ transaction: Transaction) {
        self.init(
            id: transaction.id, productID: transaction.productID, purchaseDate: transaction.purchaseDate,
            appAccountToken: transaction.appAccountToken)
        isFamilyShared = transaction.ownershipType == .familyShared
        revocationDate = transaction.revocationDate
        subscriptionGroupID = transaction.subscriptionGroupID
        price = transaction.price
        currency = transaction.currency?.identifier
        if #available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *) {
            reason = transaction.reason == .renewal ? .renewal : .purchase
        }
        if #available(iOS 17.2, macOS 14.2, tvOS 17.2, watchOS 10.2, visionOS 1.1, *) {
            offerID = transaction.offer?.id
        }
    }
}
#endif
