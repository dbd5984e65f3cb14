import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// Since when an alert fires, as `alerts --at` says it and as the pages say it (from their one backtest),
/// agrees with a backtest over all the data: for an alert that started within the page's range, and for
/// one that fires since before everything a live evaluation reads.
@Suite struct FiringSinceTests {
    /// What a report says about an alert's course.
    private struct Course: Hashable, CustomStringConvertible {
        var identity: AlertFinding.Identity
        var startsAt: Int64
        var severityChanges: [SeverityChange]

        init(_ report: AlertReport) {
            identity = report.finding.identity
            startsAt = report.startsAt
            severityChanges = report.severityChanges
        }

        var description: String { "\(identity) since \(RFC3339.format(seconds: startsAt)), \(severityChanges.count) severities" }
    }

    @Test func thePagesSnapshotAgreesWithAlertsAtOnAnIncidentWithinTheRange() async throws {
        let directory = try TemporaryDirectory()
        let store = try await OutageFixture.makeStore(in: directory)
        let context = try await AlertContext(store: store, policy: try shippedPolicy())
        let end = OutageFixture.end
        let live = try await context.firingReports(at: end).map(Course.init)
        let snapshot = try await context.snapshotReports(from: end - 86_400, at: end)
        #expect(live.contains { $0.identity.kind == .successRateBurn && $0.startsAt > OutageFixture.outageStart })
        #expect(snapshot.firing.map(Course.init) == live)
        // The episodes still open at the page's time are the firing alerts, with the same start.
        let open = snapshot.episodes.filter { $0.endsAt == nil }
        #expect(Set(open.map { [$0.finding.identity: $0.startsAt] }) == Set(live.map { [$0.identity: $0.startsAt] }))
    }

    /// One purchase in four fails from a day after the data starts until `end`, further back than a live
    /// evaluation reads (``AlertEvaluator/firingHistorySeconds``): `alerts --at` and the pages, whose range
    /// starts 3 days before `end`, both walk back to the page's true start.
    @Test func anAlertFiringSinceBeforeWhatALiveEvaluationReadsIsWalkedBackToItsStart() async throws {
        // Ten seconds of evaluation: on a thread of its own, not one the rest of the suite waits for.
        let (onset, backtest, live, snapshot) = try await offCooperativePool { try await Self.walkBack() }
        let page = try #require(backtest.first { $0.finding.kind == .successRateBurn && $0.finding.labels.slice == nil })
        #expect(page.startsAt >= onset && page.startsAt < onset + 3600, "the page starts with the failures")
        let expected = Set(backtest.map { [$0.finding.identity: $0.startsAt] })
        #expect(Set(live.map { [$0.finding.identity: $0.startsAt] }) == expected)
        #expect(Set(snapshot.map { [$0.finding.identity: $0.startsAt] }) == expected)
    }

    /// The onset, the backtest's episodes open at the end, and what `alerts --at` and the pages say fires.
    private static func walkBack() async throws -> (onset: Int64, backtest: [AlertReport], live: [AlertReport], snapshot: [AlertReport]) {
        let policy = SLOPolicy.default
        let end: Int64 = 1_795_000_000 / 60 * 60
        let onset = end - AlertEvaluator(policy: policy).firingHistorySeconds - 6 * 3600
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("long.sqlite"))
        var events: [PurchaseEvent] = []
        for (index, time) in stride(from: onset - 86_400, to: end, by: 20).enumerated() {
            let failed = time >= onset && index % 4 == 0
            events.append(
                PurchaseEvent(
                    eventID: "e\(index)", timestampMillis: time * 1000, productID: "coins_100", planID: "coins-small",
                    actionType: .purchase, resultType: failed ? .failure : .success, statusCode: failed ? 503 : 200,
                    appVersion: "4.11.0", platform: "iOS", errorDescription: failed ? "verification failed: 503" : nil))
        }
        _ = try await store.record(events, receivedAtMillis: end * 1000)
        let context = AlertContext(store: store, storedMaintenance: [], policy: policy)
        return (
            onset,
            try await context.episodeReports(from: onset - 3600, to: end + 60, stepSeconds: 60).filter { $0.endsAt == nil },
            try await context.firingReports(at: end),
            try await context.snapshotReports(from: end - 3 * 86_400, at: end).firing
        )
    }
}
