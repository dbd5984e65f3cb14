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

    @Test func demoIngestsTheSamplesAndWritesEveryPage() throws {
        // One sample file keeps the test quick; the command is the same for seven.
        let samples = directory.file("samples")
        try FileManager.default.createDirectory(atPath: samples, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root + "/sample-logs/steady.ndjson.gz", toPath: samples + "/steady.ndjson.gz")
        let db = directory.file("demo.sqlite"), out = directory.file("out")
        try Data("stale".utf8).write(to: URL(fileURLWithPath: db))  // replaced, not appended to
        try DemoCommand.parse(["--samples", samples, "--db", db, "--out", out, "--dashboards", root + "/dashboards",
                               "--policy", root + "/dashboards/slos.yaml"]).run()
        let pages = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        // The steady sample covers 2026-10-26 to 10-28 (W44): the last whole week before its end is W43.
        #expect(pages == ["index.html", "oncall.html", "rollout.html", "report-2026-W43.html"])
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(index.contains("2026-10-22T00:00:00Z to 2026-10-29T00:00:00Z"))
        let store = try SQLiteBucketStore(path: db)
        let total = try store.counts(CountQuery(fromSeconds: 1_792_800_000, toSeconds: 1_793_500_000)).first?.counts.total
        #expect((total ?? 0) > 10_000)
    }

    @Test func aMissingSampleDirectoryIsAnError() {
        #expect(throws: (any Error).self) {
            try DemoCommand.parse(["--samples", directory.file("none"), "--db", directory.file("d.sqlite")]).run()
        }
    }
}
