// A Linux stand-in for the part of StoreKit 2 that the SDK's observer (StoreKitObserver.swift) and the
// docs' examples use, declared with StoreKit's names and types (developer.apple.com/documentation/storekit),
// so that scripts/check-swift-sdk.sh compiles them on Linux. Compile-only: nothing here is ever run.
import Foundation

public struct Transaction: Sendable, Hashable {
    public struct OwnershipType: Sendable, Hashable {
        public static let purchaser = OwnershipType()
        public static let familyShared = OwnershipType()
    }
    public struct Reason: Sendable, Hashable {
        public static let purchase = Reason()
        public static let renewal = Reason()
    }
    public struct OfferType: Sendable, Hashable {
        public static let introductory = OfferType()
        public static let promotional = OfferType()
        public static let code = OfferType()
        public static let winBack = OfferType()
    }
    public struct Offer: Sendable, Hashable {
        public let id: String?
        public let type: OfferType
    }
    public struct Transactions: AsyncSequence, Sendable {
        public typealias Element = VerificationResult<Transaction>
        public struct AsyncIterator: AsyncIteratorProtocol {
            public mutating func next() async -> Element? { fatalError("compile-only") }
        }
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
    }

    public let id: UInt64
    public let originalID: UInt64
    public let productID: String
    public let purchaseDate: Date
    public let appAccountToken: UUID?
    public let ownershipType: OwnershipType
    public let revocationDate: Date?
    public let subscriptionGroupID: String?
    public let price: Decimal?
    public let currency: Locale.Currency?
    public let reason: Reason
    public let offer: Offer?
    public let jsonRepresentation: Data
    public var jwsRepresentation: String { fatalError("compile-only") }

    public func finish() async {}
    public static var updates: Transactions { Transactions() }
    public static var unfinished: Transactions { Transactions() }
}

public enum VerificationResult<SignedType: Sendable>: Sendable {
    public enum VerificationError: Error, Sendable {
        case revokedCertificate, invalidCertificateChain, invalidDeviceVerification, invalidEncoding, invalidSignature
        case missingRequiredProperties
    }
    case unverified(SignedType, VerificationError)
    case verified(SignedType)
    public var unsafePayloadValue: SignedType {
        switch self {
        case .unverified(let value, _), .verified(let value): value
        }
    }
    public var jwsRepresentation: String { fatalError("compile-only") }
}

public struct Product: Sendable, Identifiable {
    public struct PurchaseOption: Sendable, Hashable {
        public static func appAccountToken(_ token: UUID) -> PurchaseOption { PurchaseOption() }
        public static func winBackOffer(_ offer: SubscriptionOffer) -> PurchaseOption { PurchaseOption() }
    }
    public enum PurchaseResult: Sendable {
        case success(VerificationResult<Transaction>)
        case userCancelled
        case pending
    }
    public enum PurchaseError: Error, Sendable {
        case invalidQuantity, productUnavailable, purchaseNotAllowed, ineligibleForOffer, invalidOfferIdentifier, invalidOfferPrice
        case invalidOfferSignature, missingOfferParameters
    }
    public struct SubscriptionOffer: Sendable, Hashable {
        public let id: String?
    }
    public let id: String
    public let displayName: String
    public let price: Decimal
    public func purchase(options: Set<PurchaseOption> = []) async throws -> PurchaseResult { fatalError("compile-only") }
    public static func products(for identifiers: some Collection<String>) async throws -> [Product] { fatalError("compile-only") }
}

// `unsupported` (Xcode 16.3 and later) is left out: the SDK builds with Xcode 16.0, which lacks it, and takes
// it by `@unknown default`.
public enum StoreKitError: Error, Sendable {
    case unknown
    case userCancelled
    case networkError(URLError)
    case systemError(any Error)
    case notAvailableInStorefront
    case notEntitled
}

public struct PurchaseIntent: Sendable {
    public struct PurchaseIntents: AsyncSequence, Sendable {
        public typealias Element = PurchaseIntent
        public struct AsyncIterator: AsyncIteratorProtocol {
            public mutating func next() async -> PurchaseIntent? { fatalError("compile-only") }
        }
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
    }
    public let product: Product
    public var id: Product.ID { product.id }
    public let offer: Product.SubscriptionOffer?
    public static var intents: PurchaseIntents { PurchaseIntents() }
}
