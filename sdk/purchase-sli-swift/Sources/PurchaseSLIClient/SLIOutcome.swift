/// How an attempt ended: the one terminal event of an attempt.
public enum SLIOutcome: Sendable, Hashable {
    /// The purchase was granted (the grant server answered 2xx).
    case success(transactionID: String? = nil)
    /// The grant server answered 409: granted before (a retry, a second device); counted as a success.
    case alreadyGranted(transactionID: String? = nil)
    /// It failed: the store's error, or the grant server's status (0 when no answer came).
    case failure(error: String? = nil, statusCode: Int? = nil)
    /// The user cancelled.
    case cancel
    /// Waiting for approval (Ask to Buy, a bank's confirmation): not a failure.
    case pending

    /// Whether the grant server granted the purchase (now or before): the transaction may be finished.
    public var isGrant: Bool {
        switch self {
        case .success, .alreadyGranted: true
        case .failure, .cancel, .pending: false
        }
    }

    var resultType: SLIResultType {
        switch self {
        case .success: .success
        case .alreadyGranted: .alreadyGranted
        case .failure: .failure
        case .cancel: .cancel
        case .pending: .pending
        }
    }
}
