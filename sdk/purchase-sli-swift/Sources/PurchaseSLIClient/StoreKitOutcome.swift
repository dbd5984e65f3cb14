/// StoreKit's outcomes as plain values (mirrors of its types, so that the mapping is tested on Linux;
/// `StoreKitOutcome+StoreKit.swift` makes them from StoreKit's own types on Apple's systems).
public enum StoreKitPurchaseResult: Sendable, Hashable {
    /// `Product.PurchaseResult.success`: the transaction, and whether its signature verified.
    case success(verified: Bool, transactionID: String?)
    /// `.userCancelled`.
    case userCancelled
    /// `.pending`: Ask to Buy, or a bank's confirmation (Strong Customer Authentication).
    case pending
}

/// `StoreKitError` (StoreKit 2) and `Product.PurchaseError` as plain values.
public enum StoreKitErrorCase: Sendable, Hashable {
    /// `StoreKitError.userCancelled`.
    case userCancelled
    /// No network: StoreKit's `networkError(URLError)`, with the URL error's code.
    case networkError(code: Int)
    /// `StoreKitError.systemError`, with the underlying error's description.
    case systemError(String)
    /// `StoreKitError.notAvailableInStorefront`.
    case notAvailableInStorefront
    /// `StoreKitError.notEntitled`.
    case notEntitled
    /// `StoreKitError.unsupported`, or a case newer than this SDK.
    case unsupported
    /// `StoreKitError.unknown`.
    case unknown
    /// A `Product.PurchaseError` (`invalidQuantity`, `productUnavailable`, `purchaseNotAllowed`,
    /// `ineligibleForOffer`, `invalidOfferIdentifier`, `invalidOfferPrice`, `invalidOfferSignature`,
    /// `missingOfferParameters`), by name.
    case purchaseError(String)
}

/// What the app's grant server answered for a verified transaction.
public enum GrantAnswer: Sendable, Hashable {
    /// An HTTP status: 2xx granted, 409 granted before, anything else a failure.
    case status(Int, description: String? = nil)
    /// No answer (timeout, offline, TLS): recorded as status 0, a real failure.
    case noResponse(error: String)
}

extension SLIOutcome {
    /// The outcome of a purchase: StoreKit's result, then, for a verified transaction, the grant
    /// server's answer. Ask to Buy is pending, not a failure; a 409 is alreadyGranted (counted as a
    /// success); an unverified transaction is a failure (it must not be granted).
    public init(storeKit result: StoreKitPurchaseResult, grant: GrantAnswer?) {
        switch (result, grant) {
        case (.userCancelled, _): self = .cancel
        case (.pending, _): self = .pending
        case (.success(verified: false, _), _):
            self = .failure(error: "StoreKit: the transaction's signature did not verify", statusCode: nil)
        case (.success(verified: true, _), nil):
            self = .failure(error: "the grant server was not asked", statusCode: nil)
        case let (.success(verified: true, transactionID), .status(status, description)?):
            switch status {
            case 200..<300: self = .success(transactionID: transactionID)
            case 409: self = .alreadyGranted(transactionID: transactionID)
            default: self = .failure(error: description ?? "the grant server answered \(status)", statusCode: status)
            }
        case let (.success(verified: true, _), .noResponse(error)?):
            self = .failure(error: error, statusCode: 0)
        }
    }

    /// The outcome of a purchase that threw a StoreKit 2 error: the user's cancel is a cancel, the rest
    /// failures named after the error (no network as status 0).
    public init(storeKitError error: StoreKitErrorCase) {
        switch error {
        case .userCancelled: self = .cancel
        case .networkError(let code): self = .failure(error: "StoreKitError.networkError (URLError \(code))", statusCode: 0)
        case .systemError(let description): self = .failure(error: "StoreKitError.systemError: \(description)")
        case .notAvailableInStorefront: self = .failure(error: "StoreKitError.notAvailableInStorefront")
        case .notEntitled: self = .failure(error: "StoreKitError.notEntitled")
        case .unsupported: self = .failure(error: "StoreKitError.unsupported")
        case .unknown: self = .failure(error: "StoreKitError.unknown")
        case .purchaseError(let name): self = .failure(error: "Product.PurchaseError.\(name)")
        }
    }

    /// The outcome of an original StoreKit purchase that failed with `SKError.Code` `code`:
    /// `paymentCancelled` (2) and `overlayCancelled` (15) are cancels; a network failure (7) is status 0.
    public init(skErrorCode code: Int) {
        switch code {
        case 2, 15: self = .cancel
        case 7: self = .failure(error: "SKError.cloudServiceNetworkConnectionFailed (7)", statusCode: 0)
        default: self = .failure(error: "SKError.\(Self.skErrorNames[code] ?? "code") (\(code))")
        }
    }

    private static let skErrorNames = [
        0: "unknown", 1: "clientInvalid", 3: "paymentInvalid", 4: "paymentNotAllowed", 5: "storeProductNotAvailable",
        6: "cloudServicePermissionDenied", 8: "cloudServiceRevoked", 9: "privacyAcknowledgementRequired",
        10: "unauthorizedRequestData", 11: "invalidOfferIdentifier", 12: "invalidSignature", 13: "missingOfferParams",
        14: "invalidOfferPrice", 16: "overlayInvalidConfiguration", 17: "overlayTimeout", 18: "ineligibleForOffer",
        19: "unsupportedPlatform", 20: "overlayPresentedInBackgroundScene",
    ]
}
