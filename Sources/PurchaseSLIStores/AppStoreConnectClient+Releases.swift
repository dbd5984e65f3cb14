public import Foundation
public import PurchaseSLICore

extension AppStoreConnectClient {
    /// The app's versions on the platform whose phased release is `ACTIVE` or `PAUSED`, as App Store
    /// Connect lists them (`GET /v1/apps/{id}/appStoreVersions` with their `appStoreVersionPhasedRelease`,
    /// the 10 latest).
    public func releasesInProgress() async throws(StoreReleaseReadError) -> [StoreRelease] {
        var components = URLComponents(url: baseURL.appendingPathComponent("v1/apps/\(appID)/appStoreVersions"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "filter[platform]", value: platform), URLQueryItem(name: "include", value: "appStoreVersionPhasedRelease"),
            URLQueryItem(name: "limit", value: "10"),
        ]
        guard let listURL = components.url else { throw StoreReleaseReadError("app \(appID) cannot be put in a URL") }
        let list = await call.send("GET", listURL) { try await token() }
        guard list.isSuccess else {
            throw StoreReleaseReadError("listing the \(platform) versions of app \(appID): \(list.errorDescription)")
        }
        return Self.phasedReleases(in: list.body)
    }

    /// The versions of a `GET …/appStoreVersions` answer whose phased release is active or paused.
    static func phasedReleases(in body: Data) -> [StoreRelease] {
        versions(in: body).compactMap { name, phased in
            guard let name, phased.state == "ACTIVE" || phased.state == "PAUSED" else { return nil }
            return StoreRelease(
                store: .apple, name: name, isPaused: phased.state == "PAUSED", dayNumber: phased.day, pausedDays: phased.pausedDays)
        }
    }
}
