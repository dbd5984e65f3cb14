import JWTKit
public import PurchaseSLICore
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Verifies and decodes App Store Server Notifications V2 (`{"signedPayload": "<JWS>"}`).
///
/// Every JWS (the notification, its `signedTransactionInfo` and `signedRenewalInfo`) must be ES256 with
/// an `x5c` chain of leaf, intermediate and root that ends at a trusted root, carries Apple's markers
/// (``AppStoreCertificatePolicy``) and is valid at the payload's own `signedDate` (so a notification
/// resent for 72 hours, or fetched from the notification history, verifies as when it was signed).
public struct AppStoreNotificationVerifier: Sendable {
    private let roots: X5CVerifier
    /// The bundle ids whose notifications are accepted.
    public let bundleIDs: Set<String>
    /// Chains verified already: the App Store signs with few leaves, so most JWS need only their signature checked.
    private let verifiedChains = VerifiedChains()

    /// Trusts `rootCertificates` (each PEM or DER; by default Apple Root CA - G3) for `bundleIDs`.
    /// - Throws: ``StoreNotificationError`` naming the certificate that does not parse.
    public init(rootCertificates: [[UInt8]]? = nil, bundleIDs: Set<String>) throws(StoreNotificationError) {
        let files = rootCertificates ?? [Array(Data(base64Encoded: AppleRootCertificate.base64DER)!)]
        var certificates: [Certificate] = []
        for (index, file) in files.enumerated() {
            do {
                certificates += try Self.certificates(in: file)
            } catch {
                throw .malformed("root certificate \(index + 1): not a PEM or DER X.509 certificate (\(error))")
            }
        }
        do {
            roots = try X5CVerifier(rootCertificates: certificates)
        } catch {
            throw .malformed("no root certificate given")
        }
        self.bundleIDs = bundleIDs
    }

    /// The certificates of a PEM file (one or more blocks) or of one DER certificate.
    private static func certificates(in file: [UInt8]) throws -> [Certificate] {
        let text = String(decoding: file, as: UTF8.self)
        if text.contains("-----BEGIN") {
            let certificates = try PEMDocument.parseMultiple(pemString: text).map { try Certificate(pemDocument: $0) }
            guard !certificates.isEmpty else { throw StoreNotificationError.malformed("no certificate in the PEM file") }
            return certificates
        }
        return [try Certificate(derEncoded: file)]
    }

    /// Verifies one request body and returns what it reports.
    /// - Throws: ``StoreNotificationError``: malformed (400), untrusted (401), or for a bundle not
    ///   configured (403).
    public func verify(body: [UInt8]) async throws(StoreNotificationError) -> StoreNotification {
        guard let request = CompactJWS.decodeJSON(AppStorePayloads.Body.self, from: body) else {
            throw .malformed("expected a JSON object {\"signedPayload\": \"<JWS>\"} as App Store Server Notifications V2 send")
        }
        let notification = try await verify(request.signedPayload, field: "signedPayload", as: AppStorePayloads.Notification.self)
        let app =
            notification.data.map { AppStorePayloads.AppReference(bundleId: $0.bundleId, environment: $0.environment) }
            ?? notification.summary ?? notification.externalPurchaseToken
        guard let bundleID = app?.bundleId else {
            throw .malformed("signedPayload: the notification names no bundleId (in data, summary or externalPurchaseToken)")
        }
        guard bundleIDs.contains(bundleID) else {
            // The configured bundles stay out of the answer: whoever sent this may not know them.
            throw .unknownApp("bundleId \(bundleID) is not one of the configured bundles (--apple-bundle-id)")
        }
        var transaction: AppStorePayloads.Transaction?
        if let signed = notification.data?.signedTransactionInfo {
            transaction = try await verify(signed, field: "data.signedTransactionInfo", as: AppStorePayloads.Transaction.self)
        }
        if let signed = notification.data?.signedRenewalInfo {
            _ = try await verify(signed, field: "data.signedRenewalInfo", as: AppStorePayloads.RenewalInfo.self)
        }
        let verified = StoreNotification(
            store: .apple, notificationID: notification.notificationUUID, environment: app?.environment ?? "Production",
            appID: bundleID, type: notification.notificationType, subtype: notification.subtype,
            kind: Self.kind(of: notification.notificationType), signedMillis: notification.signedDate,
            transactionID: transaction?.transactionId, originalTransactionID: transaction?.originalTransactionId,
            productID: transaction?.productId, purchaseMillis: transaction?.purchaseDate,
            price: transaction?.price.map { Double($0) / 1000 }, currency: transaction?.currency,
            appAccountToken: transaction?.appAccountToken.flatMap(AppAccountToken.normalized),
            revocationMillis: transaction?.revocationDate, isFamilyShared: transaction?.inAppOwnershipType == "FAMILY_SHARED")
        if let problem = verified.problem {
            throw .malformed("signedPayload: \(Self.payloadNames[problem.field] ?? problem.field): \(problem.reason)")
        }
        return verified
    }

    /// The payloads' names of the notification's fields, for errors.
    private static let payloadNames = [
        "notificationID": "notificationUUID", "appID": "bundleId", "type": "notificationType", "signedMillis": "signedDate",
        "transactionID": "data.signedTransactionInfo.transactionId", "originalTransactionID": "data.signedTransactionInfo.originalTransactionId",
        "productID": "data.signedTransactionInfo.productId", "purchaseMillis": "data.signedTransactionInfo.purchaseDate",
        "price": "data.signedTransactionInfo.price", "currency": "data.signedTransactionInfo.currency",
        "appAccountToken": "data.signedTransactionInfo.appAccountToken", "revocationMillis": "data.signedTransactionInfo.revocationDate",
    ]

    /// What an App Store notification type means for reconciliation.
    static func kind(of type: String) -> StoreEventKind {
        switch type {
        case "ONE_TIME_CHARGE", "SUBSCRIBED", "DID_RENEW", "OFFER_REDEEMED": .charge
        case "REFUND", "REVOKE": .refund
        default: .other
        }
    }

    /// Verifies one JWS of the notification and decodes its payload; `field` names it in errors.
    private func verify<Payload: JWTPayload>(
        _ token: String, field: String, as type: Payload.Type
    ) async throws(StoreNotificationError) -> Payload {
        guard let jws = CompactJWS(token) else {
            throw .malformed("\(field): not a JWS in compact form (three base64url parts separated by dots)")
        }
        guard let header = CompactJWS.decodeJSON(AppStorePayloads.Header.self, from: jws.header) else {
            throw .malformed("\(field): the JWS header is not a JSON object")
        }
        guard header.alg == "ES256" else {
            throw .untrusted("\(field): algorithm \(header.alg.map { "\"\($0)\"" } ?? "(none)") refused; the App Store signs with ES256")
        }
        guard header.crit == nil else {
            throw .untrusted(
                "\(field): the JWS header names critical extensions (crit), which the App Store does not use and this verifier does not know")
        }
        guard let chain = header.x5c, chain.count == 3 else {
            throw .untrusted(
                "\(field): the JWS header must carry the x5c chain of 3 certificates (leaf, intermediate, root), got \(header.x5c?.count ?? 0)")
        }
        guard let signedDate = CompactJWS.decodeJSON(AppStorePayloads.SigningDate.self, from: jws.payload) else {
            throw .malformed("\(field): the JWS payload is not a JSON object with signedDate (milliseconds since 1970)")
        }
        // The date of a payload not verified yet goes into the certificates' validation: outside what an
        // X.509 time can hold (years 0000–9999, here from 1970) it would trap there.
        guard AppStorePayloads.SigningDate.representable.contains(signedDate.signedDate) else {
            throw .malformed("\(field): signedDate \(signedDate.signedDate) is not a time from 1970 to 9999 in milliseconds")
        }
        let validationTime = Date(timeIntervalSince1970: Double(signedDate.signedDate) / .millisPerSecond)
        let keys = try await verifiedChains.keys(for: chain, at: validationTime) { () async throws(StoreNotificationError) in
            try await verifyChain(chain, at: validationTime, field: field, signedDate: signedDate.signedDate)
        }
        do {
            return try await keys.verify(token, as: Payload.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw .untrusted("\(field): the signature does not verify with the leaf certificate's key")
        } catch let error as DecodingError {
            throw .malformed("\(field): \(Self.describe(error))")
        } catch {
            throw .untrusted("\(field): \(error)")
        }
    }

    /// Verifies an `x5c` chain at `validationTime`; returns its leaf's key and the span over which all
    /// three certificates are valid.
    private func verifyChain(
        _ chain: [String], at validationTime: Date, field: String, signedDate: Int64
    ) async throws(StoreNotificationError) -> VerifiedChains.Entry {
        let certificates: [Certificate]
        do {
            certificates = try chain.map { encoded in
                guard let der = Data(base64Encoded: encoded) else { throw StoreNotificationError.untrusted("not base64") }
                return try Certificate(derEncoded: [UInt8](der))
            }
        } catch {
            throw .untrusted("\(field): a certificate of the x5c chain does not parse")
        }
        let result: CertificateValidationResult
        do {
            result = try await roots.verifyChain(certificates: certificates) {
                RFC5280Policy(fixedExpiryValidationTime: validationTime)
                AppStoreCertificatePolicy()
            }
        } catch {
            throw .untrusted("\(field): the certificate chain could not be checked (\(error))")
        }
        guard case .validCertificate(let validated) = result else {
            if case .couldNotValidate(let failures) = result, let failure = failures.first {
                throw .untrusted(
                    "\(field): certificate chain refused at signedDate \(RFC3339.format(millis: signedDate)): \(failure.policyFailureReason)")
            }
            throw .untrusted(
                "\(field): the certificate chain does not lead to a trusted root (Apple Root CA - G3, or those given with --apple-root-ca)")
        }
        do {
            let key = try ES256PublicKey(certificate: certificates[0].serializeAsPEM().pemString)
            // The chain that was validated (leaf, intermediate, the trusted root), not the header's third
            // certificate, which the validation may not have used: its dates are anyone's.
            let (from, until) = (validated.map(\.notValidBefore).max(), validated.map(\.notValidAfter).min())
            guard let from, let until, from <= until else {
                throw StoreNotificationError.untrusted("the certificates' validity periods do not overlap")
            }
            return VerifiedChains.Entry(validity: from...until, keys: await JWTKeyCollection().add(ecdsa: key))
        } catch {
            throw .untrusted("\(field): the leaf certificate's key is not a P-256 key (\(error))")
        }
    }

    /// A decoding error as the field path and what was wrong.
    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            "missing field \((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            "field \(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        @unknown default:
            "\(error)"
        }
    }
}
