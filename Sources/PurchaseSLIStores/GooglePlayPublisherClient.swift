public import Foundation
import JWTKit
public import PurchaseSLICore
public import PurchaseSLIOutbound

/// Halts a Google Play staged rollout through the Android Publisher API, in one edit: `edits.insert`,
/// `edits.tracks.get` of the track, `edits.tracks.update` with the candidate's release `halted`, and
/// `edits.commit` (an edit that changes nothing is deleted). It authenticates as a service account: a
/// JWT signed RS256 with the account's private key (`iss` its email, `scope` androidpublisher, `aud` the
/// token endpoint, one hour) is exchanged at the token endpoint for an access token, which is never logged.
public struct GooglePlayPublisherClient: StoreReleaseControl {
    /// The Android Publisher API.
    public static let productionURL = URL(string: "https://androidpublisher.googleapis.com")!
    /// The scope the access token is asked for.
    public static let scope = "https://www.googleapis.com/auth/androidpublisher"

    /// Google Play.
    public let store = Store.google
    /// The app's package name and the track whose staged rollout is halted.
    public let packageName: String
    public let track: String
    /// The API's base URL and the token endpoint (the key file's `token_uri` unless given).
    public let baseURL: URL
    public let tokenURL: URL
    /// The service account's email.
    public let clientEmail: String
    private let keys: JWTKeyCollection
    /// The API's calls, retried; the deletion of an abandoned edit, tried once; the token endpoint's.
    private let call: StoreAPICall
    private let callOnce: StoreAPICall
    private let tokenCall: OutboundHTTP

    /// A client for the service account whose JSON key file holds `serviceAccountJSON`, calling over
    /// `transport`; a call that failed is tried again after `retryDelaySeconds` (doubling).
    /// - Throws: ``StoreReleaseControlError`` naming what the key file lacks.
    public init(
        serviceAccountJSON: Data, packageName: String, track: String = "production", baseURL: URL = productionURL, tokenURL: URL? = nil,
        transport: any OutboundTransport, retryDelaySeconds: Double = 1
    ) async throws {
        guard let object = try? JSONSerialization.jsonObject(with: serviceAccountJSON) as? [String: Any] else {
            throw StoreReleaseControlError("the Google Play service account key is not JSON (the key file the Cloud console gives)")
        }
        guard let email = object["client_email"] as? String, let pem = object["private_key"] as? String else {
            throw StoreReleaseControlError("the Google Play service account key has no client_email or private_key")
        }
        guard let endpoint = tokenURL ?? (object["token_uri"] as? String).flatMap(URL.init(string:)) else {
            throw StoreReleaseControlError("the Google Play service account key has no token_uri")
        }
        let key: Insecure.RSA.PrivateKey
        do { key = try Insecure.RSA.PrivateKey(pem: pem) } catch {
            throw StoreReleaseControlError("the Google Play service account's private_key is not an RSA private key in PEM")
        }
        (self.packageName, self.track, self.baseURL, self.tokenURL, clientEmail) = (packageName, track, baseURL, endpoint, email)
        let retry = OutboundRetry.storeAPI(firstDelay: .milliseconds(Int64(max(0, retryDelaySeconds) * 1000)))
        call = StoreAPICall(peer: "the Android Publisher API", baseURL: baseURL, transport: transport, retry: retry)
        callOnce = StoreAPICall(peer: "the Android Publisher API", baseURL: baseURL, transport: transport, retry: .once)
        tokenCall = OutboundHTTP(peer: "Google's token endpoint", baseURL: endpoint, transport: transport, timeout: .seconds(30), retry: retry)
        keys = await JWTKeyCollection().add(
            rsa: key, digestAlgorithm: .sha256, kid: (object["private_key_id"] as? String).map(JWKIdentifier.init(string:)))
    }

    /// The claims of the assertion exchanged for an access token.
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var scope: String
        var aud: AudienceClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim

        func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
    }

    /// The signed assertion for a token asked for at `now`, valid one hour.
    public func assertion(now: Date = Date()) async throws -> String {
        try await keys.sign(
            Claims(
                iss: IssuerClaim(value: clientEmail), scope: Self.scope, aud: AudienceClaim(value: tokenURL.absoluteString),
                iat: IssuedAtClaim(value: now), exp: ExpirationClaim(value: now.addingTimeInterval(3600))))
    }

    /// Halts the staged rollout of `version` on the track: left alone when the track has no release of
    /// it in progress or halted already; with `dryRun` only read (and the edit deleted).
    public func pause(version: String, dryRun: Bool) async -> (outcome: RolloutAction.Outcome, status: Int, detail: String) {
        let form: Data
        do {
            form = Data("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(try await assertion())".utf8)
        } catch {
            return (.failed, 0, "getting an access token for \(clientEmail): the assertion could not be signed: \(error)")
        }
        // The assertion goes in the body, to the token endpoint's origin only (no redirect is followed).
        let tokenAnswer = StoreAPIAnswer(
            await tokenCall.send("POST", tokenURL, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: form))
        guard tokenAnswer.isSuccess,
            let token = (try? JSONSerialization.jsonObject(with: tokenAnswer.body) as? [String: Any])?["access_token"] as? String
        else { return AppStoreConnectClient.failure(tokenAnswer, doing: "getting an access token for \(clientEmail)") }
        let edits = baseURL.appendingPathComponent("androidpublisher/v3/applications/\(packageName)/edits")
        let insert = await call.send("POST", edits, body: Data("{}".utf8)) { token }
        guard insert.isSuccess, let editID = (try? JSONSerialization.jsonObject(with: insert.body) as? [String: Any])?["id"] as? String else {
            return AppStoreConnectClient.failure(insert, doing: "opening an edit of \(packageName)")
        }
        let edit = edits.appendingPathComponent(editID)
        /// Deletes the edit (nothing to change, or a failure) and returns `result`.
        func abandon(_ result: (RolloutAction.Outcome, Int, String)) async -> (outcome: RolloutAction.Outcome, status: Int, detail: String) {
            _ = await callOnce.send("DELETE", edit) { token }
            return result
        }
        let trackURL = edit.appendingPathComponent("tracks/\(track)")
        let get = await call.send("GET", trackURL) { token }
        guard get.isSuccess, var object = try? JSONSerialization.jsonObject(with: get.body) as? [String: Any] else {
            return await abandon(AppStoreConnectClient.failure(get, doing: "reading track \(track) of \(packageName)"))
        }
        var releases = object["releases"] as? [[String: Any]] ?? []
        let matching = releases.indices.filter { Self.names(releases[$0], version) }
        guard let index = matching.first(where: { releases[$0]["status"] as? String == "inProgress" }) else {
            if matching.contains(where: { releases[$0]["status"] as? String == "halted" }) {
                return await abandon((.alreadyPaused, get.status, "the staged rollout of \(version) on \(track) was halted already"))
            }
            return await abandon((.notInPhasedRelease, get.status, "track \(track) has no staged rollout of \(version) in progress"))
        }
        let fraction = (releases[index]["userFraction"] as? Double).map { " at \(Int(($0 * 100).rounded())) % of users" } ?? ""
        if dryRun {
            return await abandon((.wouldPause, get.status, "would set release \(version) on \(track) to halted\(fraction) and commit the edit"))
        }
        releases[index]["status"] = "halted"
        object["releases"] = releases
        let body = jsonBody(object)
        let update = await call.send("PUT", trackURL, body: body) { token }
        guard update.isSuccess else { return await abandon(AppStoreConnectClient.failure(update, doing: "halting \(version) on \(track)")) }
        let commit = await call.send("POST", edits.appendingPathComponent("\(editID):commit")) { token }
        guard commit.isSuccess else { return await abandon(AppStoreConnectClient.failure(commit, doing: "committing the edit")) }
        return (.paused, commit.status, "staged rollout of \(version) on \(track) halted\(fraction)")
    }

    /// Whether a track's release is `version`'s: its name is the version, or holds it as a word
    /// ("4.12.0 (412)", "412 (4.12.0)").
    static func names(_ release: [String: Any], _ version: String) -> Bool {
        guard let name = release["name"] as? String else { return false }
        return name == version || name.split { !($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }.contains { $0 == version }
    }
}
