import Foundation
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

@Suite struct DemoCommandTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// The repository's root, where sample-logs/ and dashboards/ are.
    private let root = packageRoot

    @Test func demoIngestsTheSamplesAndWritesEveryPage() async throws {
        // One sample file and the store's notifications keep the test quick; the command is the same for eight.
        let samples = directory.file("samples")
        try FileManager.default.createDirectory(atPath: samples, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root + "/sample-logs/paymentdetour.ndjson.gz", toPath: samples + "/paymentdetour.ndjson.gz")
        try FileManager.default.copyItem(atPath: root + "/sample-logs/store", toPath: samples + "/store")
        let db = directory.file("demo.sqlite")
        let out = directory.file("out")
        try Data("stale".utf8).write(to: URL(fileURLWithPath: db))  // replaced, not appended to
        try await DemoCommand.parse([
            "--samples", samples, "--db", db, "--out", out, "--dashboards", root + "/dashboards",
            "--policy", root + "/dashboards/slos.yaml",
        ]).run()
        let pages = Set(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".html") })
        // The sample covers 2026-11-18 and 19 (W47): the last whole week before its end is W46.
        #expect(
            pages == [
                "index.html", "oncall.html", "rollout.html", "report-2026-W46.html", "incident-20261119-1641-b5ce28.html",
            ])
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(index.contains("2026-11-13T00:00:00Z to 2026-11-20T00:00:00Z"))
        let store = try SQLiteBucketStore(path: db)
        let total = try await store.counts(CountQuery(fromSeconds: 1_795_046_400, toSeconds: 1_795_219_200)).first?.counts.total
        #expect((total ?? 0) > 5_000)
        // Every notification verified with the sample's test root and stored; the detour's charges fired
        // until 20:16 and are still owed at the end: the on-call page says so.
        let notifications = try await store.notifications(kinds: [.charge], fromMillis: 0, toMillis: .max)
        #expect(notifications.count > 4000)
        let oncall = try String(contentsOfFile: out + "/oncall.html", encoding: .utf8)
        #expect(oncall.contains("<strong>STILL OWED</strong>"))
        #expect(
            oncall.contains(
                "incident <a href=\"incident-20261119-1641-b5ce28.html\">20261119-1641-b5ce28</a>, resolved 2026-11-19T20:16:00Z: "
                    + "15 charges still owed, 74.85 USD"))
    }

    @Test func aMissingSampleDirectoryIsAnError() async {
        await #expect(throws: (any Error).self) {
            try await DemoCommand.parse(["--samples", directory.file("none"), "--db", directory.file("d.sqlite")]).run()
        }
    }
}
