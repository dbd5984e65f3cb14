public import Foundation
public import PurchaseSLICore
public import PurchaseSLIOutbound

/// Pauses an App Store phased release through the App Store Connect API: finds the app's version
/// (`GET /v1/apps/{id}/appStoreVersions` with its `appStoreVersionPhasedRelease`) and sets the phased
/// release's state to `PAUSED` (`PATCH /v1/appStoreVersionPhasedReleases/{id}`). Each request carries a
/// JWT signed ES256 with the team's API key (`kid` the key id, `typ` JWT; `iss` the issuer id, `iat`,
/// `exp` 15 minutes later, `aud` `appstoreconnect-v1`), made anew for each request and never logged.
public struct AppStoreConnectClient: StoreReleaseControl {
    /// The App Store Connect API.
    public static let productionURL = URL(string: "https://api.appstoreconnect.apple.com")!
    /// The platforms the API knows, by the names events carry.
    public static let platforms = ["iOS": "IOS", "iPadOS": "IOS", "macOS": "MAC_OS", "tvOS": "TV_OS", "visionOS": "VISION_OS"]

    /// The App Store.
    public let store = Store.apple
    /// The app's Apple ID (the number in its App Store Connect URL).
    public let appID: String
    /// The platform of the version paused (`IOS`, `MAC_OS`, `TV_OS`, `VISION_OS`).
    public let platform: String
    /// The API's base URL.
    public let baseURL: URL
    /// The key's id and the issuer id from App Store Connect (Users and Access > Integrations).
    public var keyID: String { key.keyID }
    public var issuerID: String { key.issuerID }
    private let key: AppleAPIKey
    let call: StoreAPICall

    /// A client signing with the `.p8` private key `keyPEM`, calling over `transport`; a call that failed
    /// is tried again after `retryDelaySeconds` (doubling).
    /// - Throws: ``StoreReleaseControlError`` when it is not a P-256 private key in PEM.
    public init(
        keyPEM: String, keyID: String, issuerID: String, appID: String, platform: String = "IOS", baseURL: URL = productionURL,
        transport: any OutboundTransport, retryDelaySeconds: Double = 1
    ) async throws {
        guard let key = await AppleAPIKey(keyPEM: keyPEM, keyID: keyID, issuerID: issuerID) else {
            throw StoreReleaseControlError("the App Store Connect API key is not a P-256 private key in PEM (the .p8 file App Store Connect gives)")
        }
        (self.key, self.appID, self.platform, self.baseURL) = (key, appID, platform, baseURL)
        call = StoreAPICall(
            peer: "App Store Connect", baseURL: baseURL, transport: transport,
            retry: .storeAPI(firstDelay: .milliseconds(Int64(max(0, retryDelaySeconds) * .millisPerSecond))))
    }

    /// A token for requests made at `now`, valid 15 minutes (Apple takes at most 20).
    public func token(now: Date = Date()) async throws -> String {
        try await key.token(now: now, lifetime: 900)
    }

    /// Pauses the phased release of `version`: left alone when not found, not released in phases,
    /// already paused, not started or complete; with `dryRun` only read.
    public func pause(version: String, dryRun: Bool) async -> (outcome: RolloutAction.Outcome, status: Int, detail: String) {
        var components = URLComponents(url: baseURL.appendingPathComponent("v1/apps/\(appID)/appStoreVersions"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "filter[versionString]", value: version), URLQueryItem(name: "filter[platform]", value: platform),
            URLQueryItem(name: "include", value: "appStoreVersionPhasedRelease"), URLQueryItem(name: "limit", value: "1"),
        ]
        guard let listURL = components.url else { return (.refused, 0, "version \(version) cannot be put in a URL") }
        let list = await call.send("GET", listURL) { try await token() }
        guard list.isSuccess else { return Self.failure(list, doing: "finding \(platform) version \(version) of app \(appID)") }
        let found = Self.phasedRelease(in: list.body)
        guard let found else {
            return (.notInPhasedRelease, list.status, "App Store Connect has no \(platform) version \(version) of app \(appID)")
        }
        guard let id = found.id else { return (.notInPhasedRelease, list.status, "\(version) is not released in phases") }
        let day = found.day.map { " on day \($0)" } ?? ""
        switch found.state {
        case "PAUSED": return (.alreadyPaused, list.status, "the phased release of \(version) was paused already\(day)")
        case "COMPLETE": return (.notInPhasedRelease, list.status, "the phased release of \(version) is complete: every user has it")
        case "ACTIVE": break
        default: return (.notInPhasedRelease, list.status, "the phased release of \(version) is \(found.state ?? "in no state") (not started)")
        }
        let path = "v1/appStoreVersionPhasedReleases/\(id)"
        if dryRun {
            return (.wouldPause, list.status, "would PATCH /\(path) phasedReleaseState PAUSED (active\(day))")
        }
        let body = Data(JSONTextEncoder.text(PhasedReleasePause(data: .init(id: id))).utf8)
        let patch = await call.send("PATCH", baseURL.appendingPathComponent(path), body: body) { try await token() }
        guard patch.isSuccess else { return Self.failure(patch, doing: "pausing phased release \(id)") }
        return (.paused, patch.status, "phased release \(id) of \(version) paused\(day)")
    }

    /// The version's phased release in a `GET …/appStoreVersions` answer: nil without a version; its id
    /// (nil: none), state, day and days paused.
    static func phasedRelease(in body: Data) -> (id: String?, state: String?, day: Int?, pausedDays: Int?)? {
        versions(in: body).first?.phased
    }

    /// Each version of a `GET …/appStoreVersions` answer, in order: its version string, and its phased
    /// release's id (nil: none), state, day (`currentDayNumber`) and days paused in all (`totalPauseDuration`).
    static func versions(in body: Data) -> [(name: String?, phased: (id: String?, state: String?, day: Int?, pausedDays: Int?))] {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return [] }
        let included = object["included"] as? [[String: Any]] ?? []
        return (object["data"] as? [[String: Any]] ?? []).map { version in
            let name = (version["attributes"] as? [String: Any])?["versionString"] as? String
            let relationship = (version["relationships"] as? [String: Any])?["appStoreVersionPhasedRelease"] as? [String: Any]
            guard let id = (relationship?["data"] as? [String: Any])?["id"] as? String else { return (name, (nil, nil, nil, nil)) }
            let phased = included.first { $0["type"] as? String == "appStoreVersionPhasedReleases" && $0["id"] as? String == id }
            let attributes = phased?["attributes"] as? [String: Any]
            return (
                name,
                (
                    id, attributes?["phasedReleaseState"] as? String, attributes?["currentDayNumber"] as? Int,
                    attributes?["totalPauseDuration"] as? Int
                )
            )
        }
    }

    /// A failed call as an outcome: tried again later when transient, else refused.
    static func failure(_ answer: StoreAPIAnswer, doing what: String) -> (outcome: RolloutAction.Outcome, status: Int, detail: String) {
        StoreActionFailure(answer, doing: what).outcome
    }
}

/// A store call that failed, as what an action records: tried again later when transient, else refused.
struct StoreActionFailure: Error {
    /// The outcome, the last HTTP status (0: none) and what was asked and answered.
    var outcome: (outcome: RolloutAction.Outcome, status: Int, detail: String)
    /// What was asked and what the store answered.
    var detail: String { outcome.detail }

    /// The failure `outcome`.
    init(outcome: (outcome: RolloutAction.Outcome, status: Int, detail: String)) {
        self.outcome = outcome
    }

    /// The failure of `answer` to the call that was `doing` something.
    init(_ answer: StoreAPIAnswer, doing what: String) {
        outcome = (answer.isTransient ? .failed : .refused, answer.status, "\(what): \(answer.errorDescription)")
    }
}

/// A store's release control that cannot be set up, with the reason.
public struct StoreReleaseControlError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    init(_ description: String) { self.description = description }
}

/// The body of `PATCH /v1/appStoreVersionPhasedReleases/{id}` that pauses a phased release:
/// `{"data": {"type": "appStoreVersionPhasedReleases", "id", "attributes": {"phasedReleaseState": "PAUSED"}}}`.
struct PhasedReleasePause: Encodable {
    /// The resource changed.
    struct Resource: Encodable {
        /// What is set.
        struct Attributes: Encodable {
            let phasedReleaseState = "PAUSED"
        }

        let type = "appStoreVersionPhasedReleases"
        let id: String
        let attributes = Attributes()
    }

    let data: Resource
}
