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
        let retry = OutboundRetry.storeAPI(firstDelay: .milliseconds(Int64(max(0, retryDelaySeconds) * .millisPerSecond)))
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
                iat: IssuedAtClaim(value: now), exp: ExpirationClaim(value: now.addingTimeInterval(.secondsPerHour))))
    }

    /// An edit opened on the track: the access token, the edits' URL, the edit's id and track URL, and the
    /// track as read in it.
    struct TrackEdit: Sendable {
        var token: String
        var edits: URL
        var editID: String
        var trackBody = Data()
        var status = 0

        /// The edit's URL, and the track's in it.
        var edit: URL { edits.appendingPathComponent(editID) }
        var trackURL: URL
        /// The track as Play answered it (a JSON object).
        var track: [String: Any] { (try? JSONSerialization.jsonObject(with: trackBody) as? [String: Any]) ?? [:] }
    }

    /// Gets an access token, opens an edit and reads the track in it; a failure as an outcome (the edit,
    /// when one was opened, deleted).
    func openTrack() async -> Result<TrackEdit, StoreActionFailure> {
        let form: Data
        do {
            form = Data("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(try await assertion())".utf8)
        } catch {
            return .failure(
                StoreActionFailure(
                    outcome: (.failed, 0, "getting an access token for \(clientEmail): the assertion could not be signed: \(error)")))
        }
        // The assertion goes in the body, to the token endpoint's origin only (no redirect is followed).
        let tokenAnswer = StoreAPIAnswer(
            await tokenCall.send("POST", tokenURL, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: form))
        guard tokenAnswer.isSuccess,
            let token = (try? JSONSerialization.jsonObject(with: tokenAnswer.body) as? [String: Any])?["access_token"] as? String
        else { return .failure(StoreActionFailure(tokenAnswer, doing: "getting an access token for \(clientEmail)")) }
        let edits = baseURL.appendingPathComponent("androidpublisher/v3/applications/\(packageName)/edits")
        let insert = await call.send("POST", edits, body: Data("{}".utf8)) { token }
        guard insert.isSuccess, let editID = (try? JSONSerialization.jsonObject(with: insert.body) as? [String: Any])?["id"] as? String else {
            return .failure(StoreActionFailure(insert, doing: "opening an edit of \(packageName)"))
        }
        let trackURL = edits.appendingPathComponent(editID).appendingPathComponent("tracks/\(track)")
        var opened = TrackEdit(token: token, edits: edits, editID: editID, trackURL: trackURL)
        let get = await call.send("GET", trackURL) { token }
        guard get.isSuccess, (try? JSONSerialization.jsonObject(with: get.body) as? [String: Any]) != nil else {
            await abandon(opened)
            return .failure(StoreActionFailure(get, doing: "reading track \(track) of \(packageName)"))
        }
        (opened.trackBody, opened.status) = (get.body, get.status)
        return .success(opened)
    }

    /// Deletes an edit that changes nothing (tried once).
    func abandon(_ edit: TrackEdit) async {
        let token = edit.token
        _ = await callOnce.send("DELETE", edit.edit) { token }
    }

    /// The track's releases in progress or halted, as Play names them (the edit is read, then deleted).
    public func releasesInProgress() async throws(StoreReleaseReadError) -> [StoreRelease] {
        let opened: TrackEdit
        switch await openTrack() {
        case .success(let edit): opened = edit
        case .failure(let failure): throw StoreReleaseReadError(failure.detail)
        }
        await abandon(opened)
        return (opened.track["releases"] as? [[String: Any]] ?? []).compactMap { release in
            guard let name = release["name"] as? String, let status = release["status"] as? String, ["inProgress", "halted"].contains(status)
            else { return nil }
            return StoreRelease(store: .google, name: name, isPaused: status == "halted", userFraction: release["userFraction"] as? Double)
        }
    }

    /// Halts the staged rollout of `version` on the track: left alone when the track has no release of
    /// it in progress or halted already; with `dryRun` only read (and the edit deleted).
    public func pause(version: String, dryRun: Bool) async -> (outcome: RolloutAction.Outcome, status: Int, detail: String) {
        let opened: TrackEdit
        switch await openTrack() {
        case .success(let edit): opened = edit
        case .failure(let failure): return failure.outcome
        }
        /// Deletes the edit (nothing to change, or a failure) and returns `result`.
        func abandon(_ result: (RolloutAction.Outcome, Int, String)) async -> (outcome: RolloutAction.Outcome, status: Int, detail: String) {
            await self.abandon(opened)
            return result
        }
        var object = opened.track
        var releases = object["releases"] as? [[String: Any]] ?? []
        let matching = releases.indices.filter { Self.names(releases[$0], version) }
        guard let index = matching.first(where: { releases[$0]["status"] as? String == "inProgress" }) else {
            if matching.contains(where: { releases[$0]["status"] as? String == "halted" }) {
                return await abandon((.alreadyPaused, opened.status, "the staged rollout of \(version) on \(track) was halted already"))
            }
            return await abandon((.notInPhasedRelease, opened.status, "track \(track) has no staged rollout of \(version) in progress"))
        }
        let fraction = (releases[index]["userFraction"] as? Double).map { " at \(Int(($0 * 100).rounded())) % of users" } ?? ""
        if dryRun {
            return await abandon((.wouldPause, opened.status, "would set release \(version) on \(track) to halted\(fraction) and commit the edit"))
        }
        releases[index]["status"] = "halted"
        object["releases"] = releases
        let body = jsonBody(object)
        let token = opened.token
        let update = await call.send("PUT", opened.trackURL, body: body) { token }
        guard update.isSuccess else { return await abandon(AppStoreConnectClient.failure(update, doing: "halting \(version) on \(track)")) }
        let commit = await call.send("POST", opened.edits.appendingPathComponent("\(opened.editID):commit")) { token }
        guard commit.isSuccess else { return await abandon(AppStoreConnectClient.failure(commit, doing: "committing the edit")) }
        return (.paused, commit.status, "staged rollout of \(version) on \(track) halted\(fraction)")
    }

    /// Whether a track's release is `version`'s: its name is the version, or holds it as a word
    /// ("4.12.0 (412)", "412 (4.12.0)").
    static func names(_ release: [String: Any], _ version: String) -> Bool {
        guard let name = release["name"] as? String else { return false }
        return StoreRelease.names(name, version)
    }
}
