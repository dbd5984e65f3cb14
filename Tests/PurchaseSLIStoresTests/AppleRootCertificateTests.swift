import Crypto
import Foundation
import PurchaseSLIStores
import PurchaseSLITestSupport
import Testing

@Suite("The shipped Apple Root CA - G3")
struct AppleRootCertificateTests {
    /// Apple's published SHA-256 fingerprint of the DER.
    static let fingerprint = "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179"

    @Test("the embedded copy is Apple Root CA - G3 by its published fingerprint")
    func embeddedFingerprint() throws {
        let der = try #require(Data(base64Encoded: AppleRootCertificate.base64DER))
        #expect(SHA256.hash(data: der).map { String(format: "%02X", $0) }.joined() == Self.fingerprint)
    }

    @Test("certificates/AppleRootCA-G3.cer holds the same bytes")
    func fileMatchesEmbeddedCopy() throws {
        let file = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/certificates/AppleRootCA-G3.cer"))
        #expect(file == Data(base64Encoded: AppleRootCertificate.base64DER))
    }

    @Test("a verifier built without roots trusts it and refuses a chain of another root")
    func defaultRootRefusesTestChains() async throws {
        let chain = try AppStoreSigningChain(validity: Date(timeIntervalSince1970: 1.7e9)...Date(timeIntervalSince1970: 1.9e9))
        let verifier = try AppStoreNotificationVerifier(bundleIDs: ["com.example.app"])
        let body = try StoreNotificationEncoder.appleBody(StoreNotificationFixtures.charge(), chain: chain)
        let error = await #expect(throws: StoreNotificationError.self) { try await verifier.verify(body: body) }
        #expect(error?.httpStatus == 401)
        #expect(error?.reason.contains("trusted root") == true)
    }
}
