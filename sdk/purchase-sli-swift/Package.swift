// swift-tools-version:6.0
import PackageDescription

// The Swift SDK of purchase-sli, a package of its own so that an app adds it by URL and version with
// nothing but Foundation (and StoreKit where the system has it) in its graph: no other package, no unsafe
// flag. The release publishes this directory as its own repository (scripts/publish-swift-sdk.sh); the
// service's package uses it by path, and its tests (Tests/PurchaseSLIClientTests) hold the SDK to the
// service's event format.
let package = Package(
    name: "purchase-sli-swift",
    // iOS 16 and its siblings: Duration, Task.sleep(for:); the StoreKit observer asks for more where it needs it.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "PurchaseSLIClient", targets: ["PurchaseSLIClient"])
    ],
    targets: [
        .target(
            name: "PurchaseSLIClient",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault")]
        )
    ]
)
