import ArgumentParser
import Foundation
import PurchaseSLIServer
import PurchaseSLIStores

/// The options of `serve` that accept the stores' own notifications: which apps, the App Store's root,
/// and the token of the Play Pub/Sub push.
struct StoreNotificationOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Accept App Store Server Notifications for this bundle id at POST /v1/stores/apple/notifications; repeat for several (env PURCHASE_SLI_APPLE_BUNDLE_IDS, comma-separated).",
            valueName: "id"))
    var appleBundleID: [String] = []

    @Option(
        help: ArgumentHelp(
            "Trust this root certificate (PEM or DER) for App Store notifications instead of the shipped Apple Root CA - G3; repeat for several (env PURCHASE_SLI_APPLE_ROOT_CA, comma-separated).",
            valueName: "file"))
    var appleRootCA: [String] = []

    @Option(
        help: ArgumentHelp(
            "Accept Google Play developer notifications for this package at POST /v1/stores/google/notifications; repeat for several (env PURCHASE_SLI_GOOGLE_PACKAGES, comma-separated).",
            valueName: "name"))
    var googlePackage: [String] = []

    @Option(
        help: ArgumentHelp(
            "File of tokens the Pub/Sub push presents (?token= in its URL), one per line (env PURCHASE_SLI_GOOGLE_PUSH_TOKENS).",
            valueName: "file"))
    var googlePushTokens: String?

    /// Puts the options (else the environment's variables) into `server`, over what the config file set;
    /// errors name the option or variable at fault.
    func apply(to server: inout ServerConfiguration, environment: [String: String]) throws {
        func list(_ values: [String], _ variable: String) -> [String] {
            values.isEmpty
                ? (environment[variable] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty } : values
        }
        let bundleIDs = list(appleBundleID, "PURCHASE_SLI_APPLE_BUNDLE_IDS")
        let packages = list(googlePackage, "PURCHASE_SLI_GOOGLE_PACKAGES")
        if !bundleIDs.isEmpty { server.appleBundleIDs = Set(bundleIDs) }
        if !packages.isEmpty { server.googlePackageNames = Set(packages) }
        let roots = list(appleRootCA, "PURCHASE_SLI_APPLE_ROOT_CA")
        if !roots.isEmpty { server.appleRootCertificates = try Self.certificates(at: roots, setting: "--apple-root-ca") }
        do {
            _ = try AppStoreNotificationVerifier(rootCertificates: server.appleRootCertificates, bundleIDs: server.appleBundleIDs)
        } catch {
            throw CommandFailure(message: "--apple-root-ca / config appleRootCA: \(error.reason)")
        }
        if let path = googlePushTokens ?? environment["PURCHASE_SLI_GOOGLE_PUSH_TOKENS"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw CommandFailure(message: "--google-push-tokens: cannot read \(path)")
            }
            server.googlePushTokens = AccessKeys(fileContents: text)
            guard server.googlePushTokens.isEnabled else { throw CommandFailure(message: "--google-push-tokens: \(path) holds no token") }
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
