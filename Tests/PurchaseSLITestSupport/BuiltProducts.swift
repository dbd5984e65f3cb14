public import Foundation

/// The `purchase-sli` executable that `swift test` built next to the test bundle, or nil.
public let builtExecutable: URL? = {
    let directory = Bundle.main.bundleURL.deletingLastPathComponent()
    return [directory, Bundle.main.bundleURL].map { $0.appendingPathComponent("purchase-sli") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
}()

/// The package's root directory (for `dashboards/`, `sample-logs/` and `scripts/`).
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
