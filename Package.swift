// swift-tools-version:6.1
import PackageDescription

/// One set of Swift settings shared by every target.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The modules the alert backtests of `swift test` spend their time in (counting, simulating, evaluating
/// every minute of days of traffic) are optimized in debug builds too: the tests run several times faster
/// and still see their internals.
let optimizedSwiftSettings = swiftSettings + [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// The PostgreSQL store, for the targets that use it when the PostgreSQL trait is on (the default).
let postgresStore: Target.Dependency = .target(name: "PurchaseSLIPostgres", condition: .when(traits: ["PostgreSQL"]))

let package = Package(
    name: "purchase-sli",
    // The service and CLI run on Linux (and macOS for development).
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "purchase-sli", targets: ["purchase-sli"])
    ],
    // The PostgreSQL store (several serve nodes on one database) brings postgres-nio; it is in every build
    // unless left out with `--disable-default-traits` (docs/postgresql.md). It was off by default while it
    // brought a second copy of BoringSSL (swift-nio-ssl's); async-http-client, the outbound client, brings
    // that copy to every build now, and what the trait adds is postgres-nio alone.
    traits: [
        .trait(name: "PostgreSQL", description: "The PostgreSQL store: --db postgres://…, migrate, a leader lease for several serve nodes."),
        .default(enabledTraits: ["PostgreSQL"]),
    ],
    dependencies: [
        // The Swift SDK, a package of its own that apps add by version (sdk/purchase-sli-swift/Package.swift):
        // here for its tests against the service and its benchmark.
        .package(path: "sdk/purchase-sli-swift"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    ],
    targets: [
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CMallocTuning"),
        .target(name: "PurchaseSLICore", swiftSettings: optimizedSwiftSettings),
        .target(name: "PurchaseSLIGzip", dependencies: ["CZlib"], swiftSettings: swiftSettings),
        // The one decoding pipeline of the HTTP routes and `ingest`: gzip, framing, the formats, validation.
        .target(
            name: "PurchaseSLIDecoding",
            dependencies: ["PurchaseSLICore", "PurchaseSLIGzip", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PurchaseSLIStorage",
            dependencies: [
                "PurchaseSLICore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: optimizedSwiftSettings
        ),
        .target(
            name: "PurchaseSLIPostgres",
            dependencies: [
                "PurchaseSLICore", "PurchaseSLIStorage",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PurchaseSLIAnalysis",
            dependencies: ["PurchaseSLICore", .product(name: "Yams", package: "Yams")],
            swiftSettings: optimizedSwiftSettings
        ),
        .target(
            name: "PurchaseSLIRendering",
            dependencies: ["PurchaseSLICore", "PurchaseSLIAnalysis", "PurchaseSLIApplication", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings),
        // The one outbound HTTP client (async-http-client): redirects off, credentials to the configured
        // origin only, timeouts and retries in one place.
        .target(
            name: "PurchaseSLIOutbound",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PurchaseSLIApplication",
            dependencies: [
                "PurchaseSLICore", "PurchaseSLIStorage", postgresStore, "PurchaseSLIAnalysis", "PurchaseSLIOutbound",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PurchaseSLIDashboards",
            dependencies: [
                "PurchaseSLICore", "PurchaseSLIAnalysis", "PurchaseSLIRendering", "PurchaseSLIApplication",
            ],
            swiftSettings: swiftSettings
        ),
        .target(name: "PurchaseSLISimulation", dependencies: ["PurchaseSLICore"], swiftSettings: optimizedSwiftSettings),
        .target(
            name: "PurchaseSLIStores",
            dependencies: [
                "PurchaseSLICore", "PurchaseSLIOutbound",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PurchaseSLIServer",
            dependencies: [
                "PurchaseSLICore", "PurchaseSLIGzip", "PurchaseSLIDecoding", "PurchaseSLIStorage", "PurchaseSLIAnalysis",
                "PurchaseSLIRendering", "PurchaseSLIApplication", "PurchaseSLIDashboards", "PurchaseSLIStores", "PurchaseSLIOutbound",
                "CMallocTuning",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PurchaseSLICLI",
            dependencies: [
                "PurchaseSLICore", "PurchaseSLIGzip", "PurchaseSLIDecoding", "PurchaseSLISimulation", "PurchaseSLIRendering",
                "PurchaseSLIServer", "PurchaseSLIAnalysis", "PurchaseSLIApplication", "PurchaseSLIDashboards", "PurchaseSLIStores",
                "PurchaseSLIOutbound",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "purchase-sli",
            dependencies: [
                "PurchaseSLICLI", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // What several test targets share: temporary directories, child processes awaited without
        // blocking the cooperative pool, the built executable.
        .target(
            name: "PurchaseSLITestSupport",
            dependencies: [
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/PurchaseSLITestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "PurchaseSLICoreTests", dependencies: ["PurchaseSLICore", "PurchaseSLIGzip", "PurchaseSLITestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PurchaseSLIDecodingTests",
            dependencies: ["PurchaseSLIDecoding", "PurchaseSLICore", "PurchaseSLIGzip", "PurchaseSLITestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PurchaseSLIClientTests",
            dependencies: [
                .product(name: "PurchaseSLIClient", package: "purchase-sli-swift"), "PurchaseSLITestSupport", "PurchaseSLIGzip",
                "PurchaseSLICore", "PurchaseSLIStorage",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PurchaseSLIStorageTests",
            dependencies: ["PurchaseSLITestSupport", "PurchaseSLIStorage", postgresStore, "PurchaseSLICore"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PurchaseSLIAnalysisTests",
            dependencies: ["PurchaseSLITestSupport", "PurchaseSLIAnalysis", "PurchaseSLICore"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PurchaseSLIApplicationTests",
            dependencies: [
                "PurchaseSLIApplication", "PurchaseSLIStorage", "PurchaseSLIAnalysis", "PurchaseSLIRendering", "PurchaseSLICore",
                "PurchaseSLITestSupport", .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PurchaseSLIRenderingTests",
            dependencies: ["PurchaseSLIRendering", "PurchaseSLIApplication", "PurchaseSLIAnalysis", "PurchaseSLICore", "PurchaseSLITestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PurchaseSLIDashboardsTests",
            dependencies: [
                "PurchaseSLITestSupport", "PurchaseSLIDashboards", "PurchaseSLIApplication", "PurchaseSLIRendering", "PurchaseSLIStorage",
                "PurchaseSLIAnalysis", "PurchaseSLICore", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PurchaseSLIStoresTests",
            dependencies: [
                "PurchaseSLIStores", "PurchaseSLICore", "PurchaseSLITestSupport", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PurchaseSLISimulationTests", dependencies: ["PurchaseSLISimulation", "PurchaseSLICore"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PurchaseSLIServerTests",
            dependencies: [
                "PurchaseSLITestSupport", "PurchaseSLIServer", "PurchaseSLICore", "PurchaseSLIStorage", "PurchaseSLIGzip",
                "PurchaseSLIAnalysis", "PurchaseSLIRendering", "PurchaseSLIApplication", "PurchaseSLIDashboards", "PurchaseSLIStores",
                "PurchaseSLIOutbound",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PurchaseSLICLITests",
            dependencies: [
                "PurchaseSLITestSupport", "PurchaseSLICLI", "PurchaseSLICore", "PurchaseSLIStorage", postgresStore, "PurchaseSLISimulation",
                "PurchaseSLIAnalysis", "PurchaseSLIRendering", "PurchaseSLIServer", "PurchaseSLIApplication", "PurchaseSLIStores",
                "PurchaseSLIGzip", "PurchaseSLIOutbound",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)

// bench/client-sdk.sh's program, built only by that script (which sets PURCHASE_SLI_BENCH), so that no
// benchmark is a product of the package.
if Context.environment["PURCHASE_SLI_BENCH"] != nil {
    package.targets.append(
        .executableTarget(
            name: "purchase-sli-client-bench", dependencies: [.product(name: "PurchaseSLIClient", package: "purchase-sli-swift"), "PurchaseSLIGzip"],
            path: "bench/ClientBenchmark",
            swiftSettings: swiftSettings))
}

// libFuzzer targets, built only by scripts/fuzz.sh (which sets PURCHASE_SLI_FUZZ): each defines
// LLVMFuzzerTestOneInput and links libFuzzer's main. The package's own Swift modules are compiled with
// -sanitize=fuzzer,address (coverage to guide the fuzzer, AddressSanitizer), the dependencies as in a
// debug build: a build of the fuzz targets reuses theirs from the tests' build in the same scratch path.
if Context.environment["PURCHASE_SLI_FUZZ"] != nil {
    let sanitizers = ["-sanitize=fuzzer,address"]
    let fuzzTargets: [(name: String, module: Target.Dependency)] = [
        ("EventRecords", "PurchaseSLICore"), ("RFC3339", "PurchaseSLICore"), ("QueryArguments", "PurchaseSLICore"),
        ("GzipInflater", "PurchaseSLIGzip"), ("PolicyYAML", "PurchaseSLIAnalysis"),
        ("DashboardYAML", "PurchaseSLIApplication"), ("BucketCodec", "PurchaseSLIStorage"),
        ("NewRelic", "FuzzDecoding"), ("OTLP", "FuzzDecoding"), ("AppStoreJWS", "PurchaseSLIStores"), ("GooglePush", "PurchaseSLIStores"),
        ("ConfigFile", "PurchaseSLICLI"), ("DroppedEventsHeader", "PurchaseSLICore"), ("MaintenanceBody", "PurchaseSLIAnalysis"),
        ("OpenSLO", "PurchaseSLIAnalysis"), ("RecurrenceRule", "PurchaseSLICore"),
    ]
    package.targets.append(.target(name: "FuzzDriver", path: "Tests/Fuzz/FuzzDriver"))
    package.targets.append(
        .target(name: "FuzzSupport", dependencies: ["FuzzDriver"], path: "Tests/Fuzz/FuzzSupport", swiftSettings: swiftSettings))
    package.targets.append(
        .target(
            name: "FuzzDecoding", dependencies: ["FuzzSupport", "PurchaseSLIDecoding", "PurchaseSLIGzip"], path: "Tests/Fuzz/FuzzDecoding",
            swiftSettings: swiftSettings))
    for (name, module) in fuzzTargets {
        package.targets.append(
            .executableTarget(
                name: "Fuzz\(name)", dependencies: ["FuzzSupport", module], path: "Tests/Fuzz/\(name)",
                swiftSettings: swiftSettings + [.unsafeFlags(["-parse-as-library"])], linkerSettings: [.unsafeFlags(sanitizers)]))
    }
    // Every Swift module of the package, the fuzz targets' own included (not the C driver or the tests).
    for target in package.targets where target.type != .test && target.swiftSettings != nil {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(sanitizers)]
    }
}
