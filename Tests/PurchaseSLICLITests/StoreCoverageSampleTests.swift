import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// The sample logs' App Store notifications cover 2026-11-18 and 11-19 only: every store figure before
/// says it has no data rather than none, the weeks and budgets resting on part of their span say how much,
/// and the payment detour of 11-19, fully covered, says nothing more.
@Suite(.sampleLogs) struct StoreCoverageSampleTests {
    /// The demo's time.
    private let demoTime = RFC3339.parseMillis("2026-11-20T00:00:00Z")! / 1000

    /// The outage of 11-02: its charges not granted and its refunds are unknown, in every format.
    @Test func theOutageOf1102HasNoStoreNotifications() async throws {
        let logs = try SampleLogs.get()
        let outage = try await SampleLogs.get().incident(.successRateBurn, from: "2026-11-02T12:00:00Z", to: "2026-11-03T00:00:00Z")
        let report = try await onDedicatedThread { try await logs.context.incidentReport(id: outage.id, at: demoTime) }
        #expect(report.storeCoverage.isEmpty && report.storeCoverage.stores == [.apple])
        let markdown = report.markdown
        #expect(!markdown.contains("None of the products its alerts named") && !markdown.contains("None so far"), "\(markdown)")
        let unknown = "Unknown: no store notifications for this incident's span."
        #expect(markdown.components(separatedBy: unknown).count == 3, "\(markdown)")
        let page = report.document(navigation: [], generatedAtSeconds: demoTime).rendered
        #expect(page.contains(unknown.replacingOccurrences(of: "'", with: "&#39;")))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let coverage = try #require(json["storeCoverage"] as? [String: Any])
        #expect(coverage["whole"] as? Bool == false && coverage["text"] as? String == "No store notifications for this incident's span.")
        let stores = try #require(coverage["stores"] as? [[String: Any]])
        #expect(stores.count == 1 && stores[0]["store"] as? String == "apple" && stores[0]["coveredSeconds"] as? Int == 0)
    }

    /// The payment detour of 11-19 lies within the notifications: nothing is added, and the JSON says whole.
    @Test func theDetourOf1119IsFullyCovered() async throws {
        let logs = try SampleLogs.get()
        let detour = try await SampleLogs.get().incident(.chargedNotGranted, from: "2026-11-19T12:00:00Z", to: "2026-11-20T00:00:00Z")
        let report = try await onDedicatedThread { try await logs.context.incidentReport(id: detour.id, at: demoTime) }
        #expect(report.storeCoverage.isWhole)
        #expect(!report.markdown.contains("notifications cover") && !report.markdown.contains("no store notifications"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let coverage = try #require(json["storeCoverage"] as? [String: Any])
        #expect(coverage["whole"] as? Bool == true && coverage["text"] is NSNull)
    }

    /// W46 has no notification: its time to grant is unknown, not "no store charge"; W47 has two days of
    /// seven, and its money at risk says so beside W46's none.
    @Test func theWeeklyReviewsSayWhatTheyRestOn() async throws {
        let logs = try SampleLogs.get()
        let (w46, w47) = try await onDedicatedThread {
            (
                try await WeeklyReport(
                    week: ISOWeek(parsing: "2026-W46")!, context: AlertContext(store: logs.store, storedMaintenance: [], policy: logs.policy)
                ).markdown,
                try await WeeklyReport(
                    week: ISOWeek(parsing: "2026-W47")!, context: AlertContext(store: logs.store, storedMaintenance: [], policy: logs.policy)
                ).markdown
            )
        }
        #expect(!w46.contains("No store charge expecting a grant this week"), "\(w46)")
        #expect(w46.contains("## Time to grant\n\nUnknown: no store notifications for this week."), "\(w46)")
        #expect(w46.contains("Store figures: no store notifications for this week."))
        let partial = "App Store notifications cover only 2026-11-18 to 2026-11-19 of this week"
        #expect(w47.contains("Store figures: \(partial)."), "\(w47)")
        #expect(w47.contains("## Money at risk\n\n\(partial).\n\nNo store notifications for 2026-W46.\n"), "\(w47)")
        #expect(w47.contains("## Time to grant\n\n\(partial)."), "\(w47)")
        // W46's counts beside W47's are unknown, not 0.
        // The detour's 20 charges: 5 refunded that evening, 15 owed.
        #expect(w47.contains("| App Store | coins\\_500 | 15 | 74.85 USD | 5 | 24.95 USD | 0 | 0 | – | no data | no data | 0 |"), "\(w47)")
        #expect(w47.contains("5 refunds we caused (24.95 USD) this week, no data in 2026-W46;"), "\(w47)")
    }

    /// The on-call page at the demo's time: the time-to-grant budget rests on 2 days of data, the purchase
    /// objective's on the 27 days of its window the sample logs hold.
    @Test func theBudgetsSayHowManyDaysOfDataTheyRestOn() async throws {
        let logs = try SampleLogs.get()
        let page = try await onDedicatedThread {
            try await DashboardRenderer(
                definitions: logs.definitions,
                context: DashboardContext(store: logs.store, records: .empty, policy: logs.policy, atSeconds: demoTime, rangeSeconds: 86_400),
                links: PageLinks(databasePath: logs.database)
            ).render(generatedAtSeconds: demoTime).first { $0.name == "oncall.html" }?.html ?? ""
        }
        let card = try #require(
            page.components(separatedBy: "time to grant, App Store").dropFirst().first?.components(separatedBy: "</section>").first)
        #expect(card.contains("error budget left over 28d (2 days of data)"), "\(card)")
        #expect(page.contains("error budget left over 28d (27 days of data)"), "\(page)")
    }

    /// `charges` and `grants` over a range without notifications say so after their table, and over one
    /// partly covered say what is.
    @Test func theListsSayWhatTheyRestOn() async throws {
        let logs = try SampleLogs.get()
        let executable = try #require(builtExecutable)
        func run(_ arguments: [String]) async throws -> String {
            let (termination, output) = try await ChildProcess.run(executable, arguments + ["--db", logs.database, "--at", "2026-11-20T00:00:00Z"])
            #expect(termination == .exit(0), "\(output)")
            return output
        }
        let before = ["--from", "2026-11-01T00:00:00Z", "--to", "2026-11-08T00:00:00Z"]
        #expect(try await run(["charges"] + before) == "no store charges match\nNo store notifications for this period.\n")
        #expect(try await run(["grants", "--uncharged"] + before) == "no grants match\nNo store notifications for this period.\n")
        let partly = try await run(["charges", "--from", "2026-11-17T00:00:00Z", "--to", "2026-11-18T06:00:00Z", "--slow"])
        #expect(partly.hasSuffix("\nApp Store notifications cover only 2026-11-18 00:00 to 2026-11-18 06:00 of this period.\n"), "\(partly)")
        let covered = try await run(["charges", "--from", "2026-11-19T16:00:00Z", "--to", "2026-11-19T17:00:00Z", "--ungranted"])
        #expect(!covered.contains("notifications"), "\(covered)")
    }
}
