import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// Seconds since the epoch of an RFC 3339 time.
func seconds(_ text: String) -> Int64 { RFC3339.parseMillis(text)! / 1000 }

/// The shipped dashboard definitions (`dashboards/*.yaml` but `slos.yaml`), in file-name order.
func shippedDefinitions() throws -> [DashboardDefinition] {
    let directory = packageRoot + "/dashboards"
    return try FileManager.default.contentsOfDirectory(atPath: directory)
        .filter { $0.hasSuffix(".yaml") && $0 != "slos.yaml" }.sorted()
        .map { try DashboardDefinition(yaml: String(contentsOfFile: directory + "/" + $0, encoding: .utf8)) }
}

/// The shipped policy, `dashboards/slos.yaml`.
func shippedPolicy() throws -> SLOPolicy {
    try SLOPolicy(yaml: String(contentsOfFile: packageRoot + "/dashboards/slos.yaml", encoding: .utf8))
}

/// A store and the pages rendered from it, made once for a suite (see ``FixtureTrait``).
struct RenderedFixture: Sendable {
    /// The store the pages were rendered from.
    let store: SQLiteBucketStore
    /// The pages, by file name.
    let pages: [String: String]

    /// The fixture of the suite running.
    @TaskLocal static var current: RenderedFixture?

    /// The fixture of the suite running, or an issue when the suite has none.
    static func get() throws -> RenderedFixture {
        try #require(current, "the suite has no fixture trait")
    }
}

/// Builds a fixture in a temporary directory before a suite's tests and removes it after them, so that
/// every test (and every argument of a parameterized one) reads the same store and pages.
struct FixtureTrait: SuiteTrait, TestScoping {
    let make: @Sendable (TemporaryDirectory) async throws -> RenderedFixture

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        let fixture = try await make(directory)
        try await RenderedFixture.$current.withValue(fixture) { try await function() }
        withExtendedLifetime(directory) {}
    }
}

extension Trait where Self == FixtureTrait {
    /// ``OutageFixture``'s store and the shipped pages over its last 3 days.
    static var outageFixture: Self {
        FixtureTrait { directory in
            let store = try await OutageFixture.makeStore(in: directory)
            let context = try await OutageFixture.context(store, rangeSeconds: 3 * 86_400)
            return await RenderedFixture(store: store, pages: try renderPages(try shippedDefinitions(), context: context))
        }
    }
}

/// Four days of purchases, restores and retries, an attempt every 12 seconds (a start, and a result 5
/// seconds later), ending at ``end``:
/// - app version 4.11.0 throughout; 4.12.0 takes every third group of ten attempts from the second day,
///   and its `pro-monthly` purchases fail one time in eight (a rollback verdict);
/// - in the last 40 minutes every purchase and restore fails with a 503 (a verification outage: a page).
/// Elsewhere one purchase in 200 fails and one in 25 is cancelled; half the retries end in 409.
enum OutageFixture {
    /// The page time: on a minute but not on an hour (as `render --at now` is), so that a panel that
    /// counted whole steps before the range would show it.
    static let end = seconds("2026-11-16T12:17:00Z")
    static let start = end - 4 * 86_400
    static let outageStart = end - 40 * 60
    static let products = [("coins_100", "coins-small"), ("coins_500", "coins-medium"), ("premium_monthly", "pro-monthly")]

    static func makeStore(in directory: TemporaryDirectory) async throws -> SQLiteBucketStore {
        let store = try SQLiteBucketStore(path: directory.file("fixture.sqlite"))
        var events: [PurchaseEvent] = []
        var time = start
        var index = 0
        while time < end {
            defer {
                time += 12
                index += 1
            }
            let action: ActionType = index % 10 == 9 ? .restore : index % 10 == 8 ? .retry : .purchase
            let (product, plan) = products[index % 3]
            let version = time >= start + 86_400 && (index / 10) % 3 == 0 ? "4.12.0" : "4.11.0"
            var result = ResultType.success
            var status: Int? = 200
            var error: String?
            if time >= outageStart && action != .retry {
                (result, status, error) = (.failure, 503, "verification failed: 503 Service Unavailable")
            } else if action == .retry {
                (result, status) = index % 20 == 8 ? (.alreadyGranted, 409) : (.success, 200)
            } else if action == .purchase && version == "4.12.0" && plan == "pro-monthly" && index % 8 == 2 {
                (result, status, error) = (.failure, 400, "receipt rejected: 21002")
            } else if index % 200 == 7 {
                (result, status, error) = (.failure, nil, "SKErrorDomain Code=0")
            } else if index % 25 == 4 {
                (result, status, error) = (.cancel, nil, "payment cancelled")
            }
            let variant = index % 2 == 0 ? "storekit2" : "storekit1"
            events.append(
                PurchaseEvent(
                    eventID: "s\(index)", timestampMillis: time * 1000, productID: product, planID: plan,
                    actionType: action, resultType: .start, appVersion: version, platform: "iOS", variant: variant))
            events.append(
                PurchaseEvent(
                    eventID: "r\(index)", timestampMillis: time * 1000 + 5000, productID: product, planID: plan,
                    actionType: action, resultType: result, statusCode: status, appVersion: version, platform: "iOS",
                    variant: variant, errorDescription: error))
        }
        _ = try await store.record(events, receivedAtMillis: end * 1000)
        return store
    }

    /// A context for pages at ``end`` covering `rangeSeconds`.
    static func context(_ store: SQLiteBucketStore, rangeSeconds: Int64) async throws -> DashboardContext {
        try await DashboardContext(store: store, policy: try shippedPolicy(), atSeconds: end, rangeSeconds: rangeSeconds)
    }
}

/// The pages of `definitions` over a context, by file name.
func renderPages(_ definitions: [DashboardDefinition], context: DashboardContext) async throws -> [String: String] {
    let files = try await DashboardRenderer(definitions: definitions, context: context)
        .render(generatedAtSeconds: context.atSeconds + 60)
    return Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.html) })
}

extension StringProtocol {
    /// The text between the first `start` and the next `end` after it, or nil.
    func between(_ start: String, _ end: String) -> Substring? {
        guard let from = range(of: start)?.upperBound, let to = self[from...].range(of: end)?.lowerBound else { return nil }
        return Substring(self[from..<to])
    }
}
