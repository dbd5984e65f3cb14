import SwiftASN1
import X509

/// The App Store's own rules for its signing chain, on top of RFC 5280: exactly leaf, intermediate and
/// root, the intermediate marked as Apple's WWDR intermediate and the leaf as an App Store receipt signer.
struct AppStoreCertificatePolicy: VerifierPolicy {
    /// Apple Worldwide Developer Relations intermediate.
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    /// App Store receipt signing.
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        guard chain.count == 3 else {
            return .failsToMeetPolicy(reason: "the chain has \(chain.count) certificates; the App Store's has 3 (leaf, intermediate, root)")
        }
        guard chain[1].extensions.contains(where: { $0.oid == Self.intermediateMarker }) else {
            return .failsToMeetPolicy(reason: "the intermediate certificate lacks Apple's WWDR marker (OID 1.2.840.113635.100.6.2.1)")
        }
        guard chain[0].extensions.contains(where: { $0.oid == Self.leafMarker }) else {
            return .failsToMeetPolicy(reason: "the leaf certificate lacks the App Store signing marker (OID 1.2.840.113635.100.6.11.1)")
        }
        return .meetsPolicy
    }
}
