import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// An objective's badge is OK only when nothing fires, the data is fresh, and the last hour does not fail
/// the objective beyond chance: restores at one a minute, a third of them failing over the last half hour,
/// fire no rule (too few events for the windows that would see it) and still do not read OK.
@Suite struct StatusBadgeTests {
    private let start: Int64 = 1_794_614_400  // 2026-11-14T00:00:00Z

    /// The restore card of a day of restores at one a minute whose last 30 minutes fail every third
    /// (`failing`) or never; with `firing`, the page shows those alerts instead of evaluating its own.
    private func restoreCard(failing: Bool, failingMinutes: Set<Int> = [], firing: [AlertReport]? = nil) async throws -> String {
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("badge.sqlite"))
        let events = (0..<1440).map { minute in
            let fails = (failing && minute >= 1410 && minute % 3 == 0) || failingMinutes.contains(minute)
            return PurchaseEvent(
                eventID: "r-\(minute)", timestampMillis: (start + Int64(minute) * 60) * 1000, productID: "premium_monthly",
                actionType: .restore, resultType: fails ? .failure : .success, errorDescription: fails ? "receipt invalid" : nil)
        }
        _ = try await store.record(events, receivedAtMillis: 0)
        let context = try await DashboardContext(store: store, policy: try shippedPolicy(), atSeconds: start + 86_400, rangeSeconds: 86_400)
        let page: String
        if let firing {
            let oncall = try #require(try shippedDefinitions().first { $0.file == "oncall.html" })
            let freshness = DataFreshness(atSeconds: start + 86_400, newestEventSeconds: ["restore": start + 86_400 - 60], staleAfterSeconds: 3600)
            page = try await DashboardPage.load(
                definition: oncall, context: context, alerts: AlertSnapshot(firing: firing, episodes: firing, freshness: freshness)
            ).document(navigation: [], generatedAtSeconds: start + 86_400).rendered
        } else {
            page = try await #require(try renderPages(try shippedDefinitions(), context: context)["oncall.html"])
        }
        return String(try #require(page.between("<div class=\"card\"><h3>restore ", "</div></div>")))
    }

    /// An alert on the action that spends no budget of its objective (charges not granted, a spike; here
    /// the toy rule's) is the card's one status while the objective's own alert is quiet: the card is never
    /// OK nor green beside it.
    @Test func anotherAlertOnTheActionIsNamedBesideTheObjectivesStatus() async throws {
        let at = start + 86_400
        let finding = AlertFinding(
            kind: .restoreShare, severity: .page, labels: SeriesLabels(actionType: "restore"), time: at,
            evidence: RestoreShareEvidence(restores: 60, all: 60))
        let card = try await restoreCard(failing: false, firing: [AlertReport(finding: finding, startsAt: at - 600)])
        #expect(card.hasPrefix("<span class=\"status bad\">PAGE: RestoreShare</span></h3>"), "\(card.prefix(160))")
        #expect(card.contains("<div class=\"big \">") && !card.contains("status ok"))
    }

    @Test func aThinActionFailingNowReadsBelowObjectiveNotOK() async throws {
        let card = try await restoreCard(failing: true)
        #expect(card.hasPrefix("<span class=\"status bad\">BELOW OBJECTIVE</span>"), "\(card.prefix(120))")
        #expect(card.contains("<div class=\"big bad\">"))
    }

    @Test func theSameActionWithoutFailuresReadsOK() async throws {
        #expect(try await restoreCard(failing: false).hasPrefix("<span class=\"status ok\">OK</span>"))
        // One failure in the hour (98.3 % against 99 %) is within what chance and the budget allow.
        #expect(try await restoreCard(failing: false, failingMinutes: [1400]).hasPrefix("<span class=\"status ok\">OK</span>"))
    }

    /// Far under the objective (3 failures of 60, 95 % against 99 %) on too few events to be sure is a
    /// warning, never a green OK.
    @Test func farUnderTheObjectiveOnFewEventsIsNotOK() async throws {
        let card = try await restoreCard(failing: false, failingMinutes: [1390, 1410, 1430])
        #expect(card.hasPrefix("<span class=\"status warn\">UNDER OBJECTIVE</span>"), "\(card.prefix(120))")
    }

    /// A page that calmed to a ticket is labelled TICKET, as its text says, at the receiver and in the alert
    /// list: the action's card says the same.
    @Test func aCardTakesTheSeverityItsAlertIsLabelledWith() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("calmed.sqlite"))
        let at = start + 86_400
        let finding = AlertFinding(
            kind: .noEvents, severity: .ticket, labels: SeriesLabels(actionType: "purchase"), time: at,
            evidence: SilenceEvidence(windowSeconds: 1800, expectedEvents: 60, silentSince: at - 9000))
        let report = AlertReport(
            finding: finding, startsAt: at - 7200,
            severityChanges: [
                .init(atSeconds: at - 7200, severity: .ticket), .init(atSeconds: at - 5400, severity: .page),
                .init(atSeconds: at - 1800, severity: .ticket),
            ])
        let context = try await DashboardContext(store: store, policy: try shippedPolicy(), atSeconds: at, rangeSeconds: 86_400)
        let oncall = try #require(try shippedDefinitions().first { $0.file == "oncall.html" })
        let page = try await DashboardPage.load(
            definition: oncall, context: context,
            alerts: AlertSnapshot(
                firing: [report], episodes: [report], freshness: DataFreshness(atSeconds: at, newestEventSeconds: [:], staleAfterSeconds: 3600))
        ).document(navigation: [], generatedAtSeconds: at).rendered
        let card = String(try #require(page.between("<div class=\"card\"><h3>purchase ", "</div></div>")))
        #expect(card.contains("<span class=\"status warn\">TICKET: NoPurchaseEvents</span>"), "\(card.prefix(120))")
        #expect(page.contains("<span class=\"status warn\">TICKET</span> <strong>NoPurchaseEvents</strong>"))
        #expect(!page.contains("<span class=\"status bad\">PAGE</span>"))
    }

    /// Events clients dropped unsent: the pages say the counts are incomplete, in a banner, however
    /// fresh the data; without drops there is no such banner.
    @Test(arguments: [Int64(0), 1234])
    func droppedEventsMakeTheCountsIncomplete(dropped: Int64) async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("dropped.sqlite"))
        let at = start + 86_400
        let context = try await DashboardContext(store: store, policy: try shippedPolicy(), atSeconds: at, rangeSeconds: 86_400)
        let oncall = try #require(try shippedDefinitions().first { $0.file == "oncall.html" })
        let freshness = DataFreshness(
            atSeconds: at, newestEventSeconds: ["purchase": at - 60], staleAfterSeconds: 3600, clientDroppedEvents: dropped, countedEvents: 98_766)
        let page = try await DashboardPage.load(
            definition: oncall, context: context, alerts: AlertSnapshot(firing: [], episodes: [], freshness: freshness)
        )
        .document(navigation: [], generatedAtSeconds: at).rendered
        #expect(page.contains("<strong>INCOMPLETE</strong> clients dropped 1,234 events (1.23 % of the day") == (dropped > 0))
    }

    /// The on-call page's burn-down: a day of restores failing one time in ten spends ten times the
    /// budget, which stays spent at that burn; the week and month are missed; purchases have no events.
    @Test func theBurnDownSaysWhatIsLeftAndWhenItRunsOut() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("budget.sqlite"))
        let events = (0..<1440).map { minute in
            PurchaseEvent(
                eventID: "r-\(minute)", timestampMillis: (start + Int64(minute) * 60) * 1000, productID: "premium_monthly",
                actionType: .restore, resultType: minute % 10 == 0 ? .failure : .success)
        }
        _ = try await store.record(events, receivedAtMillis: 0)
        let context = try await DashboardContext(store: store, policy: try shippedPolicy(), atSeconds: start + 86_400, rangeSeconds: 86_400)
        let page = try await #require(try renderPages(try shippedDefinitions(), context: context)["oncall.html"])
        let restore = String(try #require(page.between("<h3>restore: error budget over 28d (1 day of data)</h3>", "</section>")))
        #expect(
            restore.contains("Budget overspent by 900.00 %; at the last 7 days&#39; burn rate (10.0×) it stays spent over the window."), "\(restore)")
        #expect(
            restore.contains(
                "<td class=\"text\">2026-W46 <span class=\"meta\">so far</span></td><td data-value=\"90.0\">90.0 %</td><td data-value=\"1440\">1,440</td>"
                    + "<td><span class=\"status bad\">MISSED</span>"
            ))
        #expect(
            restore.contains(
                "<td class=\"text\">2026-W45</td><td>n/a</td><td data-value=\"0\">0</td><td><span class=\"status none\">NO EVENTS</span>"))
        let purchase = String(try #require(page.between("<h3>purchase: error budget over 28d (no data)</h3>", "</section>")))
        #expect(purchase.contains("No valid events over the window: no budget to read."))
    }
}
