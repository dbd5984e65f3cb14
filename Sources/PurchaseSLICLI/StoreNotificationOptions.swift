import ArgumentParser
import Foundation
import PurchaseSLIServer
import PurchaseSLIStores

/// The options of `serve` that accept the stores' own notifications: which apps, the App Store's root,
/// and the token of the Play Pub/Sub push. ``ServeSettings`` reads them with the rest of the table.
struct StoreNotificationOptions: ParsableArguments {
    @Option(help: ServeSetting.named("appleBundleIDs").help) var appleBundleID: [String] = []
    @Option(help: ServeSetting.named("appleRootCA").help) var appleRootCA: [String] = []
    @Option(help: ServeSetting.named("googlePackages").help) var googlePackage: [String] = []
    @Option(help: ServeSetting.named("googlePushTokens").help) var googlePushTokens: String?

    /// The repeated options, by their setting's key.
    var lists: [String: [String]] {
        ["appleBundleIDs": appleBundleID, "appleRootCA": appleRootCA, "googlePackages": googlePackage]
    }

    /// The options of one value, by their setting's key.
    var texts: [String: String?] {
        ["googlePushTokens": googlePushTokens]
    }

    /// Refuses store settings that cannot work together: roots that do not verify, Play packages without
    /// the push's token.
    static func check(_ server: ServerConfiguration) throws {
        do {
            _ = try AppStoreNotificationVerifier(rootCertificates: server.appleRootCertificates, bundleIDs: server.appleBundleIDs)
        } catch {
            throw CommandFailure(message: "--apple-root-ca / config appleRootCA: \(error.reason)")
        }
        if !server.googlePackageNames.isEmpty, !server.googlePushTokens.isEnabled {
            throw CommandFailure(
                message:
                    "--google-package needs --google-push-tokens (config: googlePackages needs googlePushTokens): Pub/Sub pushes are not signed, so the endpoint's URL carries a secret token (?token=)"
            )
        }
    }

    /// The bytes of each root certificate file; an error naming `setting` and the file it cannot read.
    static func certificates(at paths: [String], setting: String) throws -> [[UInt8]] {
        try paths.map { path in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandFailure(message: "\(setting): cannot read the root certificate file \"\(path)\"")
            }
            return [UInt8](data)
        }
    }
}
