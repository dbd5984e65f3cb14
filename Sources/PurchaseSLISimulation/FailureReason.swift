/// Why an attempt failed: the error text the app logs, the server's status if it answered, and whether the
/// store had already charged (then the event carries a transaction id and a later retry can repair it).
struct FailureReason: Sendable {
    let errorDescription: String
    let statusCode: Int?
    let charged: Bool

    /// Verification unavailable during the outage.
    static let outage = FailureReason(
        errorDescription: "verification failed: 503 Service Unavailable", statusCode: 503, charged: true)
    /// The win-back offer's server signature is rejected by the store (slow-burn).
    static let offerSignature = FailureReason(errorDescription: "invalid offer signature", statusCode: nil, charged: false)
    /// The 4.12.0 StoreKit 2 purchase path regression (rollout).
    static let rolloutRegression = FailureReason(
        errorDescription: "StoreKit2 purchase: unknown product state", statusCode: nil, charged: true)
    /// Piled-up renewals the client does not finish (renewal-batch).
    static let unfinishedRenewal = FailureReason(
        errorDescription: "transaction unfinished: renewal not handled", statusCode: nil, charged: true)

    private static let networkLost = FailureReason(
        errorDescription: "NSURLErrorDomain Code=-1005 network connection lost", statusCode: nil, charged: true)
    private static let upstreamTimeout = FailureReason(
        errorDescription: "verification failed: 503 upstream timeout", statusCode: 503, charged: true)
    private static let internalError = FailureReason(
        errorDescription: "verification failed: 500 Internal Server Error", statusCode: 500, charged: true)
    private static let receiptMissing = FailureReason(errorDescription: "receipt missing", statusCode: 400, charged: true)

    /// Everyday purchase failures with the StoreKit 1 code path.
    private static let storeKit1: [FailureReason] = [
        FailureReason(errorDescription: "SKErrorDomain Code=0", statusCode: nil, charged: false),
        FailureReason(errorDescription: "SKErrorDomain Code=2", statusCode: nil, charged: false),
        networkLost, receiptMissing, upstreamTimeout, internalError,
        FailureReason(errorDescription: "verification failed: 400 invalid receipt", statusCode: 400, charged: true),
    ]
    private static let storeKit1Mix = WeightedTable([0.18, 0.10, 0.15, 0.15, 0.20, 0.10, 0.12])

    /// Everyday purchase failures with the StoreKit 2 code path.
    private static let storeKit2: [FailureReason] = [
        FailureReason(errorDescription: "StoreKitError.unknown", statusCode: nil, charged: false),
        FailureReason(errorDescription: "StoreKitError.networkError", statusCode: nil, charged: false),
        networkLost,
        FailureReason(errorDescription: "signed transaction unverified", statusCode: nil, charged: true),
        upstreamTimeout, internalError,
        FailureReason(errorDescription: "verification failed: 400 invalid transaction", statusCode: 400, charged: true),
    ]
    private static let storeKit2Mix = WeightedTable([0.15, 0.13, 0.15, 0.10, 0.25, 0.10, 0.12])

    /// Everyday failures of server round trips (retries, restores).
    private static let server: [FailureReason] = [upstreamTimeout, internalError, receiptMissing, networkLost]
    private static let serverMix = WeightedTable([0.45, 0.20, 0.20, 0.15])

    /// Draws an everyday purchase failure for the client's StoreKit cohort.
    static func drawPurchase(storeKit2 isStoreKit2: Bool, _ random: inout SimulationRandom) -> FailureReason {
        isStoreKit2 ? storeKit2[storeKit2Mix.pick(&random)] : storeKit1[storeKit1Mix.pick(&random)]
    }

    /// Draws an everyday failure of a retry or restore.
    static func drawServer(_ random: inout SimulationRandom) -> FailureReason {
        server[serverMix.pick(&random)]
    }
}
