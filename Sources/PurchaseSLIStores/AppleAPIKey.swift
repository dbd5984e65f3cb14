import Foundation
import JWTKit

/// An API key from App Store Connect (the `.p8` file, its key id and the team's issuer id) and the JWTs
/// it signs for Apple's APIs: ES256 with the key id in `kid` and `typ` JWT; claims `iss` the issuer id,
/// `iat`, `exp`, `aud` `appstoreconnect-v1`, and `bid` the bundle id where the API asks for one (the App
/// Store Server API does, the App Store Connect API does not).
struct AppleAPIKey: Sendable {
    /// The key's id and the issuer id.
    let keyID: String
    let issuerID: String
    private let keys: JWTKeyCollection

    /// The key of the PEM text `keyPEM`; nil when it is not a P-256 private key.
    init?(keyPEM: String, keyID: String, issuerID: String) async {
        guard let key = try? ES256PrivateKey(pem: keyPEM) else { return nil }
        (self.keyID, self.issuerID) = (keyID, issuerID)
        keys = await JWTKeyCollection().add(ecdsa: key, kid: JWKIdentifier(string: keyID))
    }

    /// The claims of a token.
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var aud: AudienceClaim
        var bid: String?

        func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
    }

    /// A token issued at `now`, valid `lifetime` seconds, with `bid` when given.
    func token(now: Date, lifetime: TimeInterval, bundleID: String? = nil) async throws -> String {
        let claims = Claims(
            iss: IssuerClaim(value: issuerID), iat: IssuedAtClaim(value: now), exp: ExpirationClaim(value: now.addingTimeInterval(lifetime)),
            aud: AudienceClaim(value: "appstoreconnect-v1"), bid: bundleID)
        var header = JWTHeader()
        header.typ = "JWT"
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyID), header: header)
    }
}
