#if canImport(StoreKit)
import Foundation
public import StoreKit

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension StoreKitPurchaseResult {
    /// StoreKit 2's purchase result as a plain value.
    public init(_ result: Product.PurchaseResult) {
        switch result {
        case .success(let verification):
            switch verification {
            case .verified(let transaction): self = .success(verified: true, transactionID: String(transaction.id))
            case .unverified(let transaction, _): self = .success(verified: false, transactionID: String(transaction.id))
            }
        case .userCancelled: self = .userCancelled
        case .pending: self = .pending
        @unknown default: self = .pending
        }
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension StoreKitErrorCase {
    /// An error `Product.purchase()` threw, as a plain value; nil for another kind of error.
    public init?(_ error: any Error) {
        if let error = error as? StoreKitError {
            switch error {
            case .userCancelled: self = .userCancelled
            case .networkError(let urlError): self = .networkError(code: urlError.code.rawValue)
            case .systemError(let underlying): self = .systemError(String(describing: underlying))
            case .notAvailableInStorefront: self = .notAvailableInStorefront
            case .notEntitled: self = .notEntitled
            case .unknown: self = .unknown
            @unknown default: self = .unsupported
            }
        } else if let error = error as? Product.PurchaseError {
            self = .purchaseError(String(describing: error))
        } else {
            return nil
        }
    }
}
#endif
