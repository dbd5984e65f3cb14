import Foundation
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

@Suite struct RolloutCommandTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// `days` days of `perDay` purchases a day from 2026-11-14: 4.11.0 and 4.10.2 throughout, 5.0.0 from the second day,
    /// failing pro-monthly purchases one time in `failEvery` on 5.0.0, and every version's purchases one
    /// time in `baseFailEvery`.
    private func makeStore(failEvery: Int, days: Int = 2, perDay: Int = 3000, baseFailEvery: Int? = nil) async throws -> String {
        let path = directory.file("db.sqlite")
        let store = try SQLiteBucketStore(path: path)
        let start = RFC3339.parseMillis("2026-11-14T00:00:00Z")!
        var events: [PurchaseEvent] = []
        for index in 0..<(perDay * days) {
            let time = start + Int64(index) * 86_400_000 / Int64(perDay)
            let secondDay = time >= start + 86_400_000
            let version = secondDay && index % 3 == 0 ? "5.0.0" : index % 4 == 1 ? "4.10.2" : "4.11.0"
            let plan = index % 2 == 0 ? "pro-monthly" : "pro-yearly"
            let fails =
                version == "5.0.0" && plan == "pro-monthly" && index % (6 * failEvery) == 0
                || baseFailEvery.map { index % $0 == 0 } ?? false
            events.append(
                PurchaseEvent(
                    eventID: "e\(index)", timestampMillis: time, productID: "pro", planID: plan, actionType: .purchase,
                    resultType: fails ? .failure : .success, appVersion: version, errorDescription: fails ? "receipt rejected" : nil))
        }
        _ = try await store.record(events, receivedAtMillis: 0)
        return path
    }

    @Test func jsonNamesTheRegressedPlanAndTheDefaults() async throws {
        let db = try await makeStore(failEvery: 6)
        let command = try RolloutCommand.parse(["--db", db, "--candidate", "5.0.0", "--at", "2026-11-16", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(try await command.output().utf8)) as? [String: Any])
        #expect(object["candidate"] as? String == "5.0.0")
        #expect(object["baseline"] as? String == "4.11.0")  // the busiest other version
        #expect(object["from"] as? String == "2026-11-15T00:00:00Z")  // the candidate's first hour
        #expect(object["verdict"] as? String == "rollback")
        let reasons = try #require(object["reasons"] as? [String])
        #expect(reasons.contains { $0.hasPrefix("success rate of purchase, planID=pro-monthly: 83.4 % of 500 on 5.0.0") }, "\(reasons)")
        let comparisons = try #require(object["comparisons"] as? [[String: Any]])
        let plan = try #require(comparisons.first { ($0["slice"] as? [String: String])?["planID"] == "pro-monthly" })
        #expect(plan["metric"] as? String == "successRate" && plan["regression"] as? Bool == true)
        let candidate = try #require(plan["candidate"] as? [String: Any])
        #expect(candidate["trials"] as? Int == 500 && candidate["count"] as? Int == 417)
        #expect((plan["pValue"] as? Double ?? 1) < 1e-6 && (plan["effect"] as? Double ?? 0) < -0.1)
        let yearly = try #require(comparisons.first { ($0["slice"] as? [String: String])?["planID"] == "pro-yearly" })
        #expect(yearly["regression"] as? Bool == false)
    }

    /// Three days of a candidate failing as often as the baseline (1 %, 9,000 events on it): a drop of
    /// more than a point is ruled out; half a day in, with 1,500 events, it is not yet.
    /// A `--since` within an hour: its events from then on count, not only those of the whole hours after it
    /// (5.0.0 makes 62 purchases from 10:30 to 12:00 of the second day, 41 of them after 11:00).
    @Test func aSinceWithinAnHourCountsThatHoursRest() async throws {
        let db = try await makeStore(failEvery: 6)
        let command = try RolloutCommand.parse([
            "--db", db, "--candidate", "5.0.0", "--baseline", "4.11.0", "--since", "2026-11-15T10:30:00Z", "--at", "2026-11-15T12:00:00Z",
            "--format", "json",
        ])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(try await command.output().utf8)) as? [String: Any])
        #expect(object["from"] as? String == "2026-11-15T10:30:00Z")
        let comparisons = try #require(object["comparisons"] as? [[String: Any]])
        let purchase = try #require(
            comparisons.first { $0["metric"] as? String == "successRate" && $0["slice"] as? [String: String] == ["actionType": "purchase"] })
        #expect((purchase["candidate"] as? [String: Any])?["trials"] as? Int == 62)
    }

    @Test func aHealthyCandidateProceeds() async throws {
        let db = try await makeStore(failEvery: 1_000_000, days: 4, perDay: 9000, baseFailEvery: 97)
        let text = try await RolloutCommand.parse(["--db", db, "--candidate", "5.0.0", "--at", "2026-11-18"]).output()
        #expect(text.hasPrefix("PROCEED with 5.0.0: nothing is worse than on 4.11.0"), "\(text)")
        #expect(text.contains("a drop of more than 1.00 points is ruled out with"), "\(text)")
        let earlier = try await RolloutCommand.parse(["--db", db, "--candidate", "5.0.0", "--baseline", "4.10.2", "--at", "2026-11-15T12:00:00Z"])
            .output()
        #expect(earlier.hasPrefix("WAIT on 5.0.0"), "\(earlier)")
        #expect(earlier.contains("purchase: not yet conclusive ("), "\(earlier)")
    }

    @Test func theNewestVersionIsTheReleasedOneNotAStrayOldOne() async throws {
        let db = try await makeStore(failEvery: 6)
        let store = try SQLiteBucketStore(path: db)
        let late = RFC3339.parseMillis("2026-11-15T20:00:00Z")!
        _ = try await store.record(
            (0..<3).map {
                PurchaseEvent(
                    eventID: "old\($0)", timestampMillis: late + Int64($0) * 1000, productID: "pro", actionType: .purchase,
                    resultType: .success, appVersion: "3.9.1")
            }, receivedAtMillis: 0)
        let query = RolloutQuery(store: store)
        let start = RFC3339.parseMillis("2026-11-14T00:00:00Z")! / 1000
        let end = RFC3339.parseMillis("2026-11-16T00:00:00Z")! / 1000
        await #expect(try query.newestVersion(from: start, to: end) == "5.0.0")
        // From the second day on every busy version is there from the start: the highest number.
        await #expect(try query.newestVersion(from: start + 86_400, to: end) == "5.0.0")
        await #expect(try query.newestVersion(from: start, to: start + 86_400) == "4.11.0")
    }

    /// 5.0.0 on the first day, gone on the second, released again on the third: without --since the
    /// comparison starts at the re-release and says that the earlier one is left out.
    @Test func aReReleaseIsNotMixedWithTheEarlierOne() async throws {
        let path = directory.file("rerelease.sqlite")
        let store = try SQLiteBucketStore(path: path)
        let start = RFC3339.parseMillis("2026-11-14T00:00:00Z")!
        let events = (0..<9000).map { index in
            let time = start + Int64(index) * 28_800
            let day = index / 3000
            let version = day != 1 && index % 10 == 0 ? "5.0.0" : "4.11.0"
            return PurchaseEvent(
                eventID: "e\(index)", timestampMillis: time, productID: "pro", actionType: .purchase, resultType: .success,
                appVersion: version, platform: "iOS")
        }
        _ = try await store.record(events, receivedAtMillis: 0)
        let command = try RolloutCommand.parse(["--db", path, "--candidate", "5.0.0", "--at", "2026-11-17", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(try await command.output().utf8)) as? [String: Any])
        #expect(object["from"] as? String == "2026-11-16T00:00:00Z")
        let progress = try #require(object["progress"] as? [String: Any])
        #expect(progress["earlierRelease"] as? [String: String] == ["from": "2026-11-14T00:00:00Z", "to": "2026-11-15T00:00:00Z"])
        #expect(progress["step"] as? Int == 10 && progress["day"] as? Int == 1)
        let text = try await RolloutCommand.parse(["--db", path, "--candidate", "5.0.0", "--at", "2026-11-17"]).output()
        #expect(text.contains("an earlier release of 5.0.0 (2026-11-14T00:00:00Z to 2026-11-15T00:00:00Z) is left out"), "\(text)")
        let since = try RolloutCommand.parse([
            "--db", path, "--candidate", "5.0.0", "--at", "2026-11-17", "--since", "2026-11-14", "--format", "json",
        ])
        let whole = try #require(try JSONSerialization.jsonObject(with: Data(try await since.output().utf8)) as? [String: Any])
        #expect(whole["from"] as? String == "2026-11-14T00:00:00Z")
        #expect((whole["progress"] as? [String: Any])?["earlierRelease"] is NSNull, "nothing is left out")
    }

    /// The baseline is the busiest other version from the re-release on, not over the whole span: 4.10.0
    /// leads over the three days, 4.11.0 once 5.0.0 is back, and the counts compared are 4.11.0's.
    @Test func theBaselineIsTheBusiestSinceTheReRelease() async throws {
        let path = directory.file("rerelease-baseline.sqlite")
        let store = try SQLiteBucketStore(path: path)
        let start = RFC3339.parseMillis("2026-11-14T00:00:00Z")!
        let events = (0..<9000).map { index in
            let (day, tenth) = (index / 3000, index % 10)
            let version =
                switch day {
                case 0: tenth == 0 ? "5.0.0" : "4.10.0"
                case 1: "4.10.0"
                default: tenth == 0 ? "5.0.0" : tenth < 7 ? "4.11.0" : "4.10.0"
                }
            return PurchaseEvent(
                eventID: "e\(index)", timestampMillis: start + Int64(index) * 28_800, productID: "pro", actionType: .purchase,
                resultType: .success, appVersion: version, platform: "iOS")
        }
        _ = try await store.record(events, receivedAtMillis: 0)
        let command = try RolloutCommand.parse(["--db", path, "--candidate", "5.0.0", "--at", "2026-11-17", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(try await command.output().utf8)) as? [String: Any])
        #expect(object["from"] as? String == "2026-11-16T00:00:00Z")
        #expect(object["baseline"] as? String == "4.11.0")
        let comparisons = try #require(object["comparisons"] as? [[String: Any]])
        let purchase = try #require(
            comparisons.first { $0["metric"] as? String == "successRate" && $0["slice"] as? [String: String] == ["actionType": "purchase"] })
        #expect((purchase["baseline"] as? [String: Any])?["trials"] as? Int == 1800)
        #expect((purchase["candidate"] as? [String: Any])?["trials"] as? Int == 300)
    }

    @Test func anUnknownCandidateIsAnError() async throws {
        let db = try await makeStore(failEvery: 6)
        await #expect(throws: RolloutQuery.Failure.self) {
            try await RolloutCommand.parse(["--db", db, "--candidate", "9.9.9", "--at", "2026-11-16"]).output()
        }
        #expect(throws: (any Error).self) { try RolloutCommand.parse(["--candidate", "1", "--baseline", "1"]) }
    }

    /// Without --candidate the newest version is compared, as `serve --rollout-every` does; with one
    /// version only there is nothing to pick, and the error says to name one.
    @Test func theCandidateIsTheNewestVersionByDefault() async throws {
        let db = try await makeStore(failEvery: 6)
        let object = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try await RolloutCommand.parse(["--db", db, "--at", "2026-11-16", "--format", "json"]).output().utf8))
                as? [String: Any])
        #expect(object["candidate"] as? String == "5.0.0" && object["verdict"] as? String == "rollback")
        let text = try await RolloutCommand.parse(["--db", db, "--candidate", "auto", "--at", "2026-11-16"]).output()
        #expect(text.hasPrefix("ROLL BACK 5.0.0"), "\(text)")
        let single = directory.file("single.sqlite")
        _ = try await SQLiteBucketStore(path: single).record(
            [
                PurchaseEvent(
                    eventID: "a", timestampMillis: RFC3339.parseMillis("2026-11-14T01:00:00Z")!, productID: "pro", actionType: .purchase,
                    resultType: .success, appVersion: "4.11.0")
            ],
            receivedAtMillis: 0)
        await #expect {
            try await RolloutCommand.parse(["--db", single, "--at", "2026-11-14T12:00:00Z"]).output()
        } throws: { "\($0)".contains("--candidate auto: no app version but one") }
    }

    /// A candidate that stopped sending events a day ago is gone: no verdict to act on, with what it said
    /// while live; while it was live it was rolled back.
    @Test func aCandidateWithoutEventsForADayIsGone() async throws {
        let path = directory.file("gone.sqlite")
        let store = try SQLiteBucketStore(path: path)
        let start = RFC3339.parseMillis("2026-11-14T00:00:00Z")!
        let events = (0..<12000).map { index in
            let time = start + Int64(index) * 28_800
            let version = index < 6000 && index % 3 == 0 ? "5.0.0" : "4.11.0"
            let fails = version == "5.0.0" && index % 12 == 0
            return PurchaseEvent(
                eventID: "e\(index)", timestampMillis: time, productID: "pro", actionType: .purchase,
                resultType: fails ? .failure : .success, appVersion: version, platform: "iOS")
        }
        _ = try await store.record(events, receivedAtMillis: 0)
        let live = try await RolloutCommand.parse(["--db", path, "--at", "2026-11-16", "--format", "json"]).output()
        #expect(live.contains("\"verdict\":\"rollback\""), "\(live)")
        let text = try await RolloutCommand.parse(["--db", path, "--at", "2026-11-17T12:00:00Z"]).output()
        #expect(
            text.hasPrefix(
                "GONE 5.0.0: it has sent no events for 24 hours or more while other versions did, so no release of it is live and "
                    + "there is nothing to proceed with or roll back (its last verdict while live, at 2026-11-16T00:00:00Z: rollback)."),
            "\(text)")
        #expect(text.contains("had appeared to reach") && !text.contains("appears to be at"), "\(text)")
        let json = try await RolloutCommand.parse(["--db", path, "--at", "2026-11-17T12:00:00Z", "--format", "json"]).output()
        #expect(json.contains("\"verdict\":\"gone\""), "\(json)")
        // Twenty-three hours after its last event it still has its verdict.
        let night = try await RolloutCommand.parse(["--db", path, "--at", "2026-11-16T23:00:00Z"]).output()
        #expect(night.hasPrefix("ROLL BACK 5.0.0"), "\(night)")
    }
}
