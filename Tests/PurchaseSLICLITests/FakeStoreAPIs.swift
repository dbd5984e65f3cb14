import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Logging
import PurchaseSLIOutbound
import PurchaseSLITestSupport
import Testing
import _CryptoExtras

/// Local stand-ins for the App Store Connect API and the Android Publisher API (with Google's token
/// endpoint) that behave as their documentation says: they check each JWT's signature with the test
/// keys' public halves, its header and claims and lifetime, serve the documented JSON shapes, and
/// answer errors in the stores' own shapes. `script` queues answers (401, 409, 429 with Retry-After,
/// 5xx) for the next requests of a route.
actor FakeStoreAPIs {
    /// The test keys: the App Store Connect `.p8` key and the Play service account's RSA key.
    static let appleKey = P256.Signing.PrivateKey()
    static let playKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let keyID = "ABC123DEFG"
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
    static let appID = "1234567890"
    static let serviceAccountEmail = "purchase-sli@example-project.iam.gserviceaccount.com"

    /// An App Store version's phased release: its id, `phasedReleaseState` and day.
    struct PhasedRelease: Sendable {
        var id: String
        var state: String
        var day: Int
        /// `totalPauseDuration`: the days paused in all.
        var pausedDays = 0
    }

    /// The App Store's versions (version string → phased release, nil: released without phases).
    var appleVersions: [String: PhasedRelease?] = [:]
    /// The Play track's releases (JSON objects as Play serves them), and the edits open.
    var playReleases: [[String: any Sendable]] = []
    private var edits: [String: [[String: any Sendable]]] = [:]
    private var editCount = 0
    private var issuedTokens: Set<String> = []
    /// How many times every version was listed (a read of the releases in progress, not of one version).
    private(set) var releaseListings = 0
    /// Every request, "METHOD path", in order.
    private(set) var requests: [String] = []
    /// The JSON bodies of the PATCHes and PUTs, in order.
    private(set) var changes: [String] = []
    /// The lifetimes (`exp` − `iat`, seconds) of the App Store tokens and the Play assertions seen.
    private(set) var appleLifetimes: [Double] = []
    private(set) var playLifetimes: [Double] = []
    /// Queued answers per route ("asc list", "asc patch", "play token", "play commit", …): status and
    /// extra headers.
    private var scripted: [String: [(status: Int, headers: [String: String])]] = [:]

    func setAppleVersion(_ version: String, _ release: PhasedRelease?) { appleVersions[version] = release }
    func setPlayReleases(_ releases: [[String: any Sendable]]) { playReleases = releases }
    func script(_ route: String, _ answers: [(status: Int, headers: [String: String])]) { scripted[route, default: []] += answers }
    /// The requests of `method` whose path contains `fragment`.
    func count(_ method: String, _ fragment: String) -> Int {
        requests.filter { $0.hasPrefix(method + " ") && $0.contains(fragment) }.count
    }

    /// The App Store Connect key's PEM (the `.p8` file's text).
    static var applePEM: String { appleKey.pemRepresentation }

    /// A service account key file as the Cloud console gives it, whose token endpoint is `tokenURL`.
    static func serviceAccountJSON(tokenURL: String) -> Data {
        let object: [String: String] = [
            "type": "service_account", "project_id": "example-project", "private_key_id": "0123456789abcdef",
            "private_key": playKey.pkcs8PEMRepresentation, "client_email": serviceAccountEmail, "token_uri": tokenURL,
        ]
        return try! JSONSerialization.data(withJSONObject: object)
    }

    // MARK: Serving

    /// Runs the fake APIs on a free port for `body`, with a transport to call them over.
    static func serve(
        _ apis: FakeStoreAPIs, _ body: @escaping @Sendable (_ baseURL: URL, _ transport: HTTPClientTransport) async throws -> Void
    ) async throws {
        let router = Router()
        router.on("/v1/apps/:app/appStoreVersions", method: .get) { request, context in
            try await apis.answer(request, route: "asc list", body: nil) { await apis.appleList(request, app: context.parameters.get("app") ?? "") }
        }
        router.on("/v1/appStoreVersionPhasedReleases/:id", method: .patch) { request, context in
            let body = try await request.body.collect(upTo: 1 << 16)
            return try await apis.answer(request, route: "asc patch", body: String(buffer: body)) {
                await apis.applePatch(id: context.parameters.get("id") ?? "", body: Data(buffer: body))
            }
        }
        router.on("/token", method: .post) { request, _ in
            let body = try await request.body.collect(upTo: 1 << 16)
            return try await apis.playToken(form: String(buffer: body), path: request.uri.path)
        }
        let edits = "/androidpublisher/v3/applications/:package/edits"
        router.on(RouterPath(edits), method: .post) { request, _ in
            try await apis.answer(request, route: "play insert", body: nil, google: true) { await apis.insertEdit() }
        }
        router.on(RouterPath(edits + "/:edit"), method: .post) { request, context in
            // edits.commit: POST …/edits/{editId}:commit
            let edit = (context.parameters.get("edit") ?? "").replacingOccurrences(of: ":commit", with: "")
            return try await apis.answer(request, route: "play commit", body: nil, google: true) { await apis.commit(edit) }
        }
        router.on(RouterPath(edits + "/:edit"), method: .delete) { request, context in
            try await apis.answer(request, route: "play delete", body: nil, google: true) {
                await apis.deleteEdit(context.parameters.get("edit") ?? "")
            }
        }
        router.on(RouterPath(edits + "/:edit/tracks/:track"), method: .get) { request, context in
            try await apis.answer(request, route: "play get", body: nil, google: true) {
                await apis.track(context.parameters.get("edit") ?? "", name: context.parameters.get("track") ?? "")
            }
        }
        router.on(RouterPath(edits + "/:edit/tracks/:track"), method: .put) { request, context in
            let body = try await request.body.collect(upTo: 1 << 16)
            return try await apis.answer(request, route: "play put", body: String(buffer: body), google: true) {
                await apis.updateTrack(context.parameters.get("edit") ?? "", body: Data(buffer: body))
            }
        }
        var logger = Logger(label: "fake-stores")
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
        try await testLive(app) { client in
            let base = URL(string: "http://127.0.0.1:\(try #require(client.port))")!
            try await HTTPClientTransport.withTransport { transport in try await body(base, transport) }
        }
    }

    /// Records the request, checks its token, plays a scripted answer if one is queued, else `handle`'s.
    private func answer(
        _ request: Request, route: String, body: String?, google: Bool = false, handle: () async -> (Int, String)
    ) async throws -> Response {
        requests.append("\(request.method.rawValue) \(request.uri.path)")
        if let body { changes.append(body) }
        let authorization = request.headers[.authorization] ?? ""
        let token = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst(7)) : ""
        let authorized = google ? issuedTokens.contains(token) : await checkAppleToken(token)
        guard authorized else {
            return Self.error(401, google: google, code: "NOT_AUTHORIZED", message: "Authentication credentials are missing or invalid.")
        }
        if var queue = scripted[route], !queue.isEmpty {
            let next = queue.removeFirst()
            scripted[route] = queue
            var response = Self.error(next.status, google: google, code: Self.code(next.status), message: "scripted \(next.status)")
            if let after = next.headers["Retry-After"] { response.headers[.retryAfter] = after }
            if let location = next.headers["Location"] { response.headers[.location] = location }
            return response
        }
        let (status, json) = await handle()
        return Self.json(status, json)
    }

    /// Whether `token` is an App Store Connect token as Apple documents it: ES256 by the test key, `kid` the
    /// key id, `typ` JWT; `iss` the issuer id, `aud` appstoreconnect-v1, `exp` at most 20 minutes after `iat`
    /// and not past.
    private func checkAppleToken(_ token: String) async -> Bool {
        let keys = await JWTKeyCollection().add(ecdsa: try! ES256PublicKey(pem: Self.appleKey.publicKey.pemRepresentation))
        guard (try? await keys.verify(token, as: AppleClaims.self)) != nil, let header = Self.part(token, 0), let claims = Self.part(token, 1),
            header["alg"] as? String == "ES256", header["kid"] as? String == Self.keyID, header["typ"] as? String == "JWT",
            claims["iss"] as? String == Self.issuerID, claims["aud"] as? String == "appstoreconnect-v1",
            let iat = claims["iat"] as? Double, let exp = claims["exp"] as? Double, exp - iat <= 1200, exp > Date().timeIntervalSince1970
        else { return false }
        appleLifetimes.append(exp - iat)
        return true
    }

    /// The claims Apple checks (the signature is what the key collection verifies).
    private struct AppleClaims: JWTPayload {
        var exp: ExpirationClaim
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// A JWT's header (0) or claims (1) as JSON.
    static func part(_ token: String, _ index: Int) -> [String: Any]? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var text = parts[index].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    // MARK: App Store Connect

    private func appleList(_ request: Request, app: String) -> (Int, String) {
        // The query's names and values, percent-decoded (filter%5BversionString%5D is filter[versionString]).
        let query = Dictionary(
            (request.uri.query ?? "").split(separator: "&").map { pair -> (String, String) in
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { first, _ in first })
        guard app == Self.appID else {
            return (404, #"{"errors":[{"status":"404","code":"NOT_FOUND","title":"The specified resource does not exist"}]}"#)
        }
        guard query["filter[platform]"] == "IOS", query["include"] == "appStoreVersionPhasedRelease" else {
            return (200, #"{"data":[],"links":{"self":"x"}}"#)
        }
        // Without a version asked for: every version (newest first), each with its phased release.
        guard let version = query["filter[versionString]"] else {
            releaseListings += 1
            return (200, Self.versionsJSON(appleVersions.sorted { $0.key > $1.key }.map { ($0.key, $0.value) }))
        }
        guard let entry = appleVersions[version] else { return (200, #"{"data":[],"links":{"self":"x"}}"#) }
        guard let release = entry else {
            return (
                200,
                #"{"data":[{"type":"appStoreVersions","id":"v\#(version)","attributes":{"versionString":"\#(version)","platform":"IOS"},"relationships":{"appStoreVersionPhasedRelease":{"data":null}}}]}"#
            )
        }
        return (
            200,
            #"{"data":[{"type":"appStoreVersions","id":"v\#(version)","attributes":{"versionString":"\#(version)","platform":"IOS","appStoreState":"READY_FOR_SALE"},"relationships":{"appStoreVersionPhasedRelease":{"data":{"type":"appStoreVersionPhasedReleases","id":"\#(release.id)"}}}}],"included":[{"type":"appStoreVersionPhasedReleases","id":"\#(release.id)","attributes":{"phasedReleaseState":"\#(release.state)","startDate":"2026-11-13T00:00:00Z","totalPauseDuration":\#(release.pausedDays),"currentDayNumber":\#(release.day)}}]}"#
        )
    }

    /// A `GET …/appStoreVersions` answer listing `versions` with their phased releases.
    static func versionsJSON(_ versions: [(version: String, release: PhasedRelease?)]) -> String {
        let data = versions.map { version, release in
            #"{"type":"appStoreVersions","id":"v\#(version)","attributes":{"versionString":"\#(version)","platform":"IOS"},"#
                + #""relationships":{"appStoreVersionPhasedRelease":{"data":"#
                + (release.map { #"{"type":"appStoreVersionPhasedReleases","id":"\#($0.id)"}"# } ?? "null") + "}}}"
        }
        let included = versions.compactMap(\.release).map {
            #"{"type":"appStoreVersionPhasedReleases","id":"\#($0.id)","attributes":{"phasedReleaseState":"\#($0.state)","currentDayNumber":\#($0.day),"totalPauseDuration":\#($0.pausedDays)}}"#
        }
        return #"{"data":["# + data.joined(separator: ",") + #"],"included":["# + included.joined(separator: ",") + "]}"
    }

    private func applePatch(id: String, body: Data) -> (Int, String) {
        guard let version = appleVersions.first(where: { $0.value?.id == id })?.key, let release = appleVersions[version] ?? nil else {
            return (404, #"{"errors":[{"status":"404","code":"NOT_FOUND","title":"The specified resource does not exist"}]}"#)
        }
        let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        let data = object?["data"] as? [String: Any]
        guard data?["type"] as? String == "appStoreVersionPhasedReleases", data?["id"] as? String == id,
            let state = (data?["attributes"] as? [String: Any])?["phasedReleaseState"] as? String
        else { return (400, #"{"errors":[{"status":"400","code":"PARAMETER_ERROR.INVALID","title":"A parameter has an invalid value"}]}"#) }
        appleVersions[version] = PhasedRelease(id: id, state: state, day: release.day, pausedDays: release.pausedDays)
        return (
            200,
            #"{"data":{"type":"appStoreVersionPhasedReleases","id":"\#(id)","attributes":{"phasedReleaseState":"\#(state)","currentDayNumber":\#(release.day)}}}"#
        )
    }

    // MARK: Google

    /// The token endpoint: a JWT-bearer assertion signed RS256 by the service account's key, with its
    /// email as `iss`, the androidpublisher scope, this endpoint as `aud`, at most an hour.
    private func playToken(form: String, path: String) async throws -> Response {
        requests.append("POST \(path)")
        if var queue = scripted["play token"], !queue.isEmpty {
            let next = queue.removeFirst()
            scripted["play token"] = queue
            var response = Self.json(next.status, #"{"error":"temporarily_unavailable"}"#)
            if let after = next.headers["Retry-After"] { response.headers[.retryAfter] = after }
            if let location = next.headers["Location"] { response.headers[.location] = location }
            return response
        }
        let fields = Dictionary(
            form.split(separator: "&").map { pair -> (String, String) in
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { first, _ in first })
        let keys = await JWTKeyCollection().add(rsa: try Insecure.RSA.PublicKey(backing: Self.playKey.publicKey), digestAlgorithm: .sha256)
        guard fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = fields["assertion"],
            (try? await keys.verify(assertion, as: AppleClaims.self)) != nil, let claims = Self.part(assertion, 1),
            Self.part(assertion, 0)?["alg"] as? String == "RS256", claims["iss"] as? String == Self.serviceAccountEmail,
            claims["scope"] as? String == "https://www.googleapis.com/auth/androidpublisher", (claims["aud"] as? String)?.hasSuffix("/token") == true,
            let iat = claims["iat"] as? Double, let exp = claims["exp"] as? Double, exp - iat <= 3600
        else { return Self.json(400, #"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#) }
        playLifetimes.append(exp - iat)
        let token = "ya29.test-\(issuedTokens.count + 1)"
        issuedTokens.insert(token)
        return Self.json(200, #"{"access_token":"\#(token)","expires_in":3599,"token_type":"Bearer"}"#)
    }

    private func insertEdit() -> (Int, String) {
        editCount += 1
        let id = "edit\(editCount)"
        edits[id] = playReleases
        return (200, #"{"id":"\#(id)","expiryTimeSeconds":"1900000000"}"#)
    }

    private func track(_ edit: String, name: String) -> (Int, String) {
        guard let releases = edits[edit] else { return Self.googleError(404, "NOT_FOUND", "Edit not found") }
        return (200, Self.trackJSON(name, releases))
    }

    private func updateTrack(_ edit: String, body: Data) -> (Int, String) {
        guard edits[edit] != nil else { return Self.googleError(404, "NOT_FOUND", "Edit not found") }
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any], let releases = object["releases"] as? [[String: Any]]
        else { return Self.googleError(400, "INVALID_ARGUMENT", "Invalid track") }
        edits[edit] = releases.map { release in release.mapValues { Self.sendable($0) } }
        return (200, String(decoding: body, as: UTF8.self))
    }

    private func commit(_ edit: String) -> (Int, String) {
        guard let releases = edits.removeValue(forKey: edit) else { return Self.googleError(404, "NOT_FOUND", "Edit not found") }
        playReleases = releases
        return (200, #"{"id":"\#(edit)"}"#)
    }

    private func deleteEdit(_ edit: String) -> (Int, String) {
        edits[edit] = nil
        return (204, "")
    }

    static func trackJSON(_ name: String, _ releases: [[String: any Sendable]]) -> String {
        let object: [String: Any] = ["track": name, "releases": releases]
        return String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    private static func sendable(_ value: Any) -> any Sendable {
        switch value {
        case let text as String: text
        case let number as NSNumber: number.doubleValue
        case let list as [Any]: list.map { "\($0)" }
        default: "\(value)"
        }
    }

    // MARK: Answers

    private static func json(_ status: Int, _ body: String) -> Response {
        Response(
            status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    private static func error(_ status: Int, google: Bool, code: String, message: String) -> Response {
        google
            ? json(status, googleError(status, code, message).1)
            : json(status, #"{"errors":[{"id":"e1","status":"\#(status)","code":"\#(code)","title":"\#(message)","detail":"\#(message) (detail)"}]}"#)
    }

    private static func googleError(_ status: Int, _ code: String, _ message: String) -> (Int, String) {
        (status, #"{"error":{"code":\#(status),"message":"\#(message)","status":"\#(code)"}}"#)
    }

    private static func code(_ status: Int) -> String {
        switch status {
        case 401: "NOT_AUTHORIZED"
        case 403: "FORBIDDEN_ERROR"
        case 409: "STATE_ERROR"
        case 429: "RATE_LIMIT_EXCEEDED"
        default: "UNEXPECTED_ERROR"
        }
    }
}
