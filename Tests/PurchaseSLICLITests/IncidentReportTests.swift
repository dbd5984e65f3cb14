import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// `purchase-sli incident ID` on the sample logs' incidents as the demo shows them: the hard outage of
/// 2026-11-02 and the payment detour of 2026-11-19, read as a person reads a postmortem draft.
@Suite(.sampleLogs) struct IncidentReportTests {
    /// The demo's time: what `demo` renders and evaluates at.
    private let demoTime = RFC3339.parseMillis("2026-11-20T00:00:00Z")! / 1000

    @Test func theOutagesReportHasItsTimelineItsErrorsAndWhatItCost() async throws {
        let logs = try SampleLogs.get()
        let outage = try await SampleLogs.get().incident(.successRateBurn, from: "2026-11-02T12:00:00Z", to: "2026-11-03T00:00:00Z")
        let report = try await onDedicatedThread { try await logs.context.incidentReport(id: outage.id, at: demoTime) }
        #expect(report.incident == outage)
        // The timeline goes first bad minute ≤ first alert < peak < recovery ≤ resolved, each once.
        func moment(_ label: String) throws -> Int64 {
            let found = report.timeline.filter { $0.label == label }
            try #require(found.count == 1, "\(label): \(report.timeline)")
            return found[0].seconds
        }
        let (bad, alerted, peak, recovered, resolved) =
            (try moment("first bad minute"), try moment("first alert"), try moment("peak"), try moment("recovery"), try moment("resolved"))
        #expect(bad <= alerted && alerted < peak && peak < recovered && recovered <= resolved, "\(report.timeline)")
        #expect(resolved == outage.endsAt && alerted == outage.startsAt)
        // What it did: the purchases' top error is the outage's 503, in the report as in the store.
        let purchase = try #require(report.impacts.first)
        #expect(purchase.actionType == "purchase" && purchase.scope == nil)
        #expect(purchase.topErrors.first?.description == "verification failed: 503 Service Unavailable")
        let counted = try await logs.store.counts(
            CountQuery(fromSeconds: outage.firstBadSeconds, toSeconds: resolved, filters: [.actionType: ["purchase"]])
        ).first?.counts
        #expect(purchase.counts == counted)
        // What it cost: the same estimate as the alert's own, the purchases lost priced in USD.
        let lost = try #require(report.cost.lost["purchase"])
        #expect(lost.purchases >= 50 && lost.interval.contains(lost.purchases) && (lost.worth["USD"] ?? 0) > lost.purchases)
        let alone = try #require(report.alerts.count == 1 ? report.alerts[0].cost?.lost["purchase"] : nil)
        // The same estimate as the alert's own (summed in another order: equal to rounding).
        #expect(abs(alone.purchases - lost.purchases) < 1e-6 && abs(alone.interval.upperBound - lost.interval.upperBound) < 1e-6)
        #expect(report.lateCharges.isEmpty && report.cost.ungranted == nil)
        // Read while it goes on, the alert and its incident count from the same first bad minute.
        let during = try await onDedicatedThread { try await logs.context.incidentReport(id: outage.id, at: outage.startsAt + 38 * 60) }
        let (incidentSoFar, alertSoFar) = (try #require(during.cost.lost["purchase"]), try #require(during.alerts.first?.cost?.lost["purchase"]))
        #expect(!during.isOver && abs(incidentSoFar.purchases - alertSoFar.purchases) < 1e-6, "\(incidentSoFar) \(alertSoFar)")
        // Every format says it.
        let markdown = report.markdown
        for section in ["# Incident \(outage.id) · PAGE", "## Timeline", "## What it did", "## Charges not granted in time", "## Alerts"] {
            #expect(markdown.contains(section), "\(section)")
        }
        #expect(markdown.contains("- **cost**: ≈ \(NumberText.count(Int64(lost.purchases.rounded()))) purchases"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(json["id"] as? String == outage.id && json["over"] as? Bool == true)
        let cost = try #require(json["cost"] as? [String: Any])
        let lostJSON = try #require((cost["lost"] as? [String: Any])?["purchase"] as? [String: Any])
        #expect(lostJSON["low"] as? Double == lost.interval.lowerBound.rounded())
        #expect((json["timeline"] as? [[String: Any]])?.count == report.timeline.count)
    }

    /// The payment detour: the charges its ChargedNotGranted alert names and still owed (not refunded
    /// since) are counted in full, once, and taken out of the purchases the cancel spike lost, since the app
    /// reported those attempts cancelled.
    @Test func theDetoursChargesCountInFullAndOnce() async throws {
        let logs = try SampleLogs.get()
        let detour = try await SampleLogs.get().incident(.chargedNotGranted, from: "2026-11-19T12:00:00Z", to: "2026-11-20T00:00:00Z")
        #expect(Set(detour.episodes.map(\.first.kind)) == [.chargedNotGranted, .cancelRateSpike])
        let (report, listed) = try await onDedicatedThread {
            let report = try await logs.context.incidentReport(id: detour.id, at: demoTime)
            // What `charges --ungranted` lists for the product over the incident, charged during it.
            let ledger = try await logs.store.ledger(
                kinds: [.charge], fromMillis: detour.firstBadSeconds * 1000, toMillis: demoTime * 1000, rule: logs.policy.reconciliation)
            return (report, ledger.overdueCharges.filter { $0.productID == "coins_500" && $0.isOwed(at: demoTime * 1000) })
        }
        // The cost counts every charge not granted in time and never delivered since: the 15 still owed
        // (what `charges --ungranted` lists) and the 5 the App Store refunded, each once.
        let ungranted = try #require(report.cost.ungranted)
        let owed = report.lateCharges.filter { $0.isOwed(at: demoTime * 1000) }
        let lostCharges = report.lateCharges.filter { !$0.isGranted(by: demoTime * 1000) && $0.settlement?.kind != .madeWhole }
        #expect(owed.count == listed.count && lostCharges.count == owed.count + ChargeSettlementTests.refunded.count)
        #expect(ungranted.count == lostCharges.count)
        #expect(abs((ungranted.worth["USD"] ?? 0) - Double(lostCharges.count) * 4.99) < 0.01)
        // Its alerts stopped at 20:16, an hour after the last charge went ungranted; 15 are still owed, so it is resolved, not settled.
        #expect(report.isOver && detour.endsAt == RFC3339.parseMillis("2026-11-19T20:16:00Z")! / 1000)
        #expect(report.title.hasSuffix(" · PAGE · resolved"), "\(report.title)")
        let impact = try #require(report.impacts.first)
        #expect(impact.heading == "purchase, productID=coins_500")
        // The cancelled-but-charged attempts are among the cancel spike's lost purchases: counted once.
        let spike = try #require(report.alerts.first { $0.finding.kind == .cancelRateSpike })
        let cancelled = lostCharges.filter { $0.report?.lastResult == .cancel }.count
        #expect(cancelled > 0)
        let lost = try #require(report.cost.lost["purchase"])
        let computedAlone = try await onDedicatedThread {
            try await logs.context.lostPurchases(
                of: "purchase", from: detour.firstBadSeconds, until: detour.endsAt ?? demoTime,
                filters: [.actionType: ["purchase"], .productID: ["coins_500"]], target: 0.99)
        }
        let alone = try #require(computedAlone)
        #expect(abs(lost.purchases - max(0, alone.purchases - Double(cancelled))) < 0.001, "\(lost) \(alone) \(cancelled)")
        #expect(spike.cost?.lost["purchase"] != nil)
        #expect(
            report.cost.summary().rendered(.terminal).contains(
                "charges taken and not granted, \(NumberText.money(ungranted.worth["USD"]!, currency: "USD")) (in full)"))
    }

    @Test(arguments: [
        ("2026-11-02", "expected an incident id as the alerts show it"),
        ("20261102-1803-000000", "no incident 20261102-1803-000000"),
    ])
    func anIDThatNamesNoIncidentIsAnErrorThatSaysSo(id: String, message: String) async throws {
        let logs = try SampleLogs.get()
        let executable = try #require(builtExecutable)
        let (status, output) = try await ChildProcess.run(executable, ["incident", id, "--db", logs.database, "--at", "2026-11-20T00:00:00Z"])
        #expect(status != .exit(0) && output.contains(message), "\(output)")
    }

    /// `render` writes each incident's report beside the pages, and every link to one leads to a file.
    @Test func thePagesLinkToEachIncidentsReport() async throws {
        let logs = try SampleLogs.get()
        let directory = try TemporaryDirectory()
        let out = directory.file("out")
        #expect(
            try await run([
                "render", "--db", logs.database, "--dashboards", packageRoot + "/dashboards", "--out", out, "--at", "2026-11-20T00:00:00Z",
            ]) == 0)
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        let incidents = files.filter { $0.hasPrefix("incident-") }
        #expect(incidents.contains("incident-20261119-1641-b5ce28.html"), "\(files.sorted())")
        for page in files where page.hasSuffix(".html") {
            let html = try String(contentsOfFile: out + "/" + page, encoding: .utf8)
            for link in html.matches(of: #/href="(?<file>incident-[^"#]+)"/#) {
                #expect(files.contains(String(link.output.file)), "\(page) links to \(link.output.file)")
            }
        }
        let oncall = try String(contentsOfFile: out + "/oncall.html", encoding: .utf8)
        #expect(oncall.contains("incident <a href=\"incident-20261119-1641-b5ce28.html\">20261119-1641-b5ce28</a>"))
        let review = try String(contentsOfFile: out + "/report-2026-W46.html", encoding: .utf8)
        #expect(review.contains("<a href=\"incident-20261111-0941-6d6271.html\">20261111-0941-6d6271</a>"))
        let page = try String(contentsOfFile: out + "/incident-20261119-1641-b5ce28.html", encoding: .utf8)
        #expect(page.contains("<h2>Charges not granted in time</h2>") && page.contains("not granted"))
        // Its chart shades the detour's page red (17:04 to 20:01) and its tickets amber, each alert named.
        #expect(page.contains("<svg class=\"wide\""))
        #expect(page.contains("<title>PAGE ChargedNotGranted</title>") && page.contains("<rect class=\"band\" "))
        #expect(page.contains("<rect class=\"band ticket\" ") && page.contains("<title>TICKET CancelRateSpike</title>"))
    }
}
