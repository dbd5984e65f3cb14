import Crypto
import SwiftASN1
import X509

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A certificate chain shaped like the App Store's (root, an intermediate with Apple's WWDR marker, a
/// leaf with the App Store signing marker) made on the spot, and the JWS it signs: for `simulate`'s
/// notifications and for tests, which verify them with `--apple-root-ca` set to its root. Each part
/// can be made wrong on purpose (a missing marker, an expired leaf) to test the refusals.
public struct AppStoreSigningChain: Sendable {
    /// What to make differently from a valid chain.
    public struct Flaws: Sendable, Hashable {
        /// Leave the App Store signing marker out of the leaf.
        public var leafWithoutMarker = false
        /// Leave Apple's WWDR marker out of the intermediate.
        public var intermediateWithoutMarker = false
        /// The leaf's validity, instead of the chain's.
        public var leafValidity: ClosedRange<Date>?

        /// No flaw.
        public init(leafWithoutMarker: Bool = false, intermediateWithoutMarker: Bool = false, leafValidity: ClosedRange<Date>? = nil) {
            self.leafWithoutMarker = leafWithoutMarker
            self.intermediateWithoutMarker = intermediateWithoutMarker
            self.leafValidity = leafValidity
        }
    }

    /// The root's DER encoding: what `--apple-root-ca` trusts.
    public let rootDER: [UInt8]
    /// The intermediate's DER encoding.
    public let intermediateDER: [UInt8]
    /// The leaf's DER encoding.
    public let leafDER: [UInt8]
    private let leafKey: P256.Signing.PrivateKey
    /// The header of an ES256 JWS, made once.
    private let es256Header: String

    /// Makes a chain valid over `validity` (every certificate), with `flaws`.
    public init(validity: ClosedRange<Date>, flaws: Flaws = Flaws()) throws {
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName {
            CommonName("purchase-sli test root")
            OrganizationName("purchase-sli")
        }
        let intermediateName = try DistinguishedName {
            CommonName("purchase-sli test intermediate")
            OrganizationName("purchase-sli")
        }
        let leafName = try DistinguishedName {
            CommonName("purchase-sli test App Store signer")
            OrganizationName("purchase-sli")
        }
        let marker = { (oid: ASN1ObjectIdentifier) in Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00]) }
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey), notValidBefore: validity.lowerBound,
            notValidAfter: validity.upperBound, issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(rootKey))
        let intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey), notValidBefore: validity.lowerBound,
            notValidAfter: validity.upperBound, issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true))
                if !flaws.intermediateWithoutMarker { marker(AppStoreCertificatePolicy.intermediateMarker) }
            },
            issuerPrivateKey: .init(rootKey))
        let leafValidity = flaws.leafValidity ?? validity
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey), notValidBefore: leafValidity.lowerBound,
            notValidAfter: leafValidity.upperBound, issuer: intermediateName, subject: leafName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                if !flaws.leafWithoutMarker { marker(AppStoreCertificatePolicy.leafMarker) }
            },
            issuerPrivateKey: .init(intermediateKey))
        rootDER = try Self.der(root)
        intermediateDER = try Self.der(intermediate)
        leafDER = try Self.der(leaf)
        es256Header = Self.header(algorithm: "ES256", chain: [leafDER, intermediateDER, rootDER])
    }

    /// The JWS header naming `algorithm` and carrying `chain` in `x5c`, base64url.
    private static func header(algorithm: String, chain: [[UInt8]]) -> String {
        let certificates = chain.map { "\"" + Data($0).base64EncodedString() + "\"" }.joined(separator: ",")
        return base64URL(Array("{\"alg\":\"\(algorithm)\",\"x5c\":[\(certificates)]}".utf8))
    }

    private static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// The root as PEM, for a file `--apple-root-ca` reads.
    public var rootPEM: String {
        let base64 = Array(Data(rootDER).base64EncodedString())
        let lines = stride(from: 0, to: base64.count, by: 64).map { String(base64[$0..<min($0 + 64, base64.count)]) }
        return "-----BEGIN CERTIFICATE-----\n" + lines.joined(separator: "\n") + "\n-----END CERTIFICATE-----\n"
    }

    /// `payload` (JSON) signed as a compact JWS with this chain in `x5c`; `algorithm` only names the
    /// header's `alg` (the signature is always ES256), so that other values can be tested.
    public func sign(_ payload: [UInt8], algorithm: String = "ES256") throws -> String {
        let header = algorithm == "ES256" ? es256Header : Self.header(algorithm: algorithm, chain: [leafDER, intermediateDER, rootDER])
        let signingInput = header + "." + Self.base64URL(payload)
        let signature = try leafKey.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Self.base64URL(Array(signature.rawRepresentation))
    }

    /// Base64url without padding. O(n), byte by byte.
    static func base64URL(_ bytes: [UInt8]) -> String {
        var encoded = Array(Data(bytes).base64EncodedString().utf8)
        while encoded.last == UInt8(ascii: "=") { encoded.removeLast() }
        for index in encoded.indices {
            if encoded[index] == UInt8(ascii: "+") {
                encoded[index] = UInt8(ascii: "-")
            } else if encoded[index] == UInt8(ascii: "/") {
                encoded[index] = UInt8(ascii: "_")
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
