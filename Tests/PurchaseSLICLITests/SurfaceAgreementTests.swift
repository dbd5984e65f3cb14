import Foundation
import Logging
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIOutbound
import PurchaseSLIRendering
import PurchaseSLIServer
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// The sample logs' incidents, as the newcomer's `demo` ingests them: every surface (the text, Markdown,
/// Slack and Alertmanager output of `alerts --at`, `serve --notify`'s Slack messages, the on-call page
/// and the index, the weekly review, `charges`) shows the alerts the backtest shows at the same minute,
/// with the same severity, start, incident and numbers, at the start, the peak, the recovery and after
/// each incident.
@Suite(.sampleLogs) struct SurfaceAgreementTests {
    @Test(arguments: SampleIncident.all)
    func everySurfaceTellsTheSameStoryAtEachMinute(_ incident: SampleIncident) async throws {
        let logs = try SampleLogs.get()
        let (backtest, minutes) = try await onDedicatedThread {
            let backtest = try await logs.context.episodeReports(from: incident.from, to: incident.to, stepSeconds: 60)
            return (backtest, try incident.minutes(in: backtest))
        }
        let (renderAt, after) = (minutes.peak, minutes.after)
        for time in minutes.all {
            let expected = backtest.filter { $0.startsAt <= time && ($0.endsAt ?? .max) > time }
            let surfaces = try await onDedicatedThread { try await AlertSurfaces(logs, at: time, pages: time == renderAt) }
            surfaces.expectAgreement(with: expected, at: time)
            if time == after { #expect(!surfaces.reports.contains { $0.incident?.id == minutes.incident.id }, "still firing after it ended") }
            if minutes.notified.contains(time) { try await expectNotifications(logs, at: time, agreeWith: surfaces) }
            try await expectCharges(surfaces)
        }
    }

    /// The charges of the sample logs are one app's (the notifications' bundle id, the value of the events'
    /// `app`): `charges --app` with it lists what `charges` lists, with another app nothing, and `query --of
    /// charges --by app` counts them under it.
    @Test func chargesPerApp() async throws {
        let logs = try SampleLogs.get()
        let executable = try #require(builtExecutable)
        let range = ["--db", logs.database, "--from", "2026-11-01", "--to", "2026-12-01", "--at", "2026-12-01"]
        func charges(_ extra: [String]) async throws -> String {
            let (termination, output) = try await ChildProcess.run(executable, ["charges"] + range + extra)
            #expect(termination == .exit(0), "\(output)")
            return output
        }
        let all = try await charges(["--format", "json"])
        #expect(all.split(separator: "\n").count > 100)
        #expect(try await charges(["--format", "json", "--app", SimulateCommand.bundleID]) == all)
        #expect(all.split(separator: "\n").allSatisfy { $0.contains(#""app":"\#(SimulateCommand.bundleID)""#) })
        #expect(try await charges(["--app", "com.example.other"]) == "no store charges match\nNo store notifications for this period.\n")
        let (termination, counted) = try await ChildProcess.run(
            executable, ["query", "--of", "charges", "--by", "app", "--format", "csv"] + range)
        #expect(termination == .exit(0), "\(counted)")
        let rows = counted.split(separator: "\n").dropFirst()
        #expect(rows.count == 1 && rows.first?.hasPrefix(SimulateCommand.bundleID + ",") == true, "\(counted)")
    }

    /// A page counts in the week it happened: the DoubleGrant incident 20261025-1601-cbf2d5 paged from 16:30
    /// on Sunday 2026-10-25 (W43) and went on as a ticket into W44: W43's review says it paged, W44's does not.
    @Test func aPageCountsInTheWeekItHappened() async throws {
        let logs = try SampleLogs.get()
        for (week, paged) in [("2026-W43", "1 incident (1 paged)"), ("2026-W44", "1 incident (0 paged)")] {
            let review = try await onDedicatedThread {
                try await WeeklyReport(
                    week: try #require(ISOWeek(parsing: week)), context: AlertContext(store: logs.store, storedMaintenance: [], policy: logs.policy))
            }
            let summary = review.summary(escaping: .terminal)
            #expect(summary.contains(paged), "\(week): \(summary)")
        }
    }

    /// A week whose data starts inside it is partial: the sample logs begin on Saturday 2026-10-24, so W43
    /// holds events on 2 of its 7 days; W44 says so and does not compare its failure counts with them
    /// (no "+233 %"); W45, beside a whole W44, compares as before.
    @Test func aPartialWeekIsNotComparedAsIfWhole() async throws {
        let logs = try SampleLogs.get()
        func review(_ week: String) async throws -> WeeklyReport {
            try await onDedicatedThread {
                try await WeeklyReport(
                    week: try #require(ISOWeek(parsing: week)), context: AlertContext(store: logs.store, storedMaintenance: [], policy: logs.policy))
            }
        }
        let (w43, w44, w45) = (try await review("2026-W43"), try await review("2026-W44"), try await review("2026-W45"))
        #expect(w43.daysWithEvents.current == 2 && w43.summary(escaping: .terminal).contains("This week holds events on 2 of its 7 days."))
        #expect(w44.daysWithEvents == (7, 2) && w44.previousWeekIsPartial)
        #expect(w44.summary(escaping: .terminal).contains("2026-W43 holds events on 2 of its 7 days: its counts are not compared with this week's."))
        #expect(!w44.errors.isEmpty && w44.markdown.contains("| – (2026-W43: 2 of 7 days) |"), "\(w44.markdown)")
        #expect(!w45.previousWeekIsPartial && !w45.summary(escaping: .terminal).contains("of its 7 days"))
        #expect(!w45.markdown.contains("of 7 days"))
    }

    /// Time to grant tells one story: the weekly review's charges late or not granted, per store and per
    /// product, are what `charges --slow` lists over the week at its end; the on-call page's last 24 h what
    /// it lists over the day.
    @Test func timeToGrantAgreesWithTheChargesListed() async throws {
        let logs = try SampleLogs.get()
        let executable = try #require(builtExecutable)
        let week = try #require(ISOWeek(parsing: "2026-W47"))
        let review = try await onDedicatedThread {
            try await WeeklyReport(week: week, context: AlertContext(store: logs.store, storedMaintenance: [], policy: logs.policy))
        }
        let times = try #require(review.grantTimes)
        func slow(from: Int64, to: Int64, _ extra: [String] = []) async throws -> Int {
            let (termination, output) = try await ChildProcess.run(
                executable,
                [
                    "charges", "--db", logs.database, "--from", RFC3339.format(seconds: from), "--to", RFC3339.format(seconds: to), "--at",
                    RFC3339.format(seconds: to), "--slow", "--format", "json",
                ] + extra)
            #expect(termination == .exit(0), "\(output)")
            return output.split(separator: "\n").count
        }
        let apple = try #require(times.rows.first { $0.store == .apple && $0.slice == nil })
        #expect(apple.summary.late > 20 && apple.summary.charges > 4000, "\(apple.summary)")
        #expect(try await slow(from: week.startSeconds, to: week.endSeconds, ["--store", "apple"]) == apple.summary.late)
        let coins = try #require(times.rows.first { $0.slice == .init(dimension: .productID, value: "coins_500") })
        #expect(try await slow(from: week.startSeconds, to: week.endSeconds, ["--product", "coins_500"]) == coins.summary.late)
        #expect(
            review.markdown.contains(
                "App Store: \(NumberText.percent(apple.summary.onTimeShare)) of \(NumberText.count(Int64(apple.summary.charges))) charges granted within 1 min"
            ))

        let end = try #require(RFC3339.parseMillis("2026-11-20T00:00:00Z")) / 1000
        let page = try await onDedicatedThread { try await AlertSurfaces(logs, at: end, pages: true).oncall ?? "" }
        let late = try await slow(from: end - 86_400, to: end)
        let shown = page.firstMatch(of: #/<td class="text">App Store \(all\)</td><td(?: class="bad")?>[^<]+</td><td>(?<late>[0-9,]+)</td>/#)
        #expect(shown?.output.late == Substring(NumberText.count(Int64(late))), "\(late) late: \(page)")
    }

    /// Refunds we caused tell one story: the payment detour's charges, never granted, refunded hours later,
    /// are counted so in the W47 review, listed so by `charges --refunds`, and named so in its incident report.
    @Test func refundsWeCausedAgree() async throws {
        let logs = try SampleLogs.get()
        let executable = try #require(builtExecutable)
        let week = try #require(ISOWeek(parsing: "2026-W47"))
        let review = try await onDedicatedThread {
            try await WeeklyReport(week: week, context: AlertContext(store: logs.store, storedMaintenance: [], policy: logs.policy))
        }
        let ours = review.refunds.current.ours
        #expect(ours.count >= 3 && review.refunds.current.byCause[.neverGranted]?.count == ours.count, "\(review.refunds.current)")
        #expect(ours.amounts == ["USD": 4.99 * Double(ours.count)])
        let (termination, output) = try await ChildProcess.run(
            executable,
            [
                "charges", "--db", logs.database, "--from", RFC3339.format(seconds: week.startSeconds), "--to",
                RFC3339.format(seconds: week.endSeconds), "--refunds", "--format", "json",
            ])
        #expect(termination == .exit(0), "\(output)")
        let listed = output.split(separator: "\n")
        #expect(listed.count == review.refunds.current.ours.count + review.refunds.current.others.count)
        #expect(listed.filter { $0.contains(#""cause":"never granted","causedByUs":true"#) }.count == ours.count, "\(output)")
        #expect(review.markdown.contains("| never granted | \(ours.count) | \(NumberText.money(4.99 * Double(ours.count), currency: "USD")) |"))

        let (reportTermination, report) = try await ChildProcess.run(
            executable, ["incident", "--db", logs.database, "20261119-1641-b5ce28", "--format", "json"])
        #expect(reportTermination == .exit(0), "\(report)")
        #expect(report.components(separatedBy: #""cause":"never granted","ours":true"#).count - 1 == ours.count, "\(report)")
    }

    /// The weekly review (`report --week`) has one row per incident of the week, as `alerts --from --to`
    /// over the week groups its episodes: id, peak severity within the week, first bad minute, start and end. W45 holds the
    /// outage and the cancel spike, W46 the 409 flood (one incident across its night lulls).
    @Test(arguments: ["2026-W43", "2026-W45", "2026-W46"])
    func theWeeklyReviewHasOneRowPerIncident(_ name: String) async throws {
        let logs = try SampleLogs.get()
        let week = try #require(ISOWeek(parsing: name))
        let (review, backtest) = try await onDedicatedThread {
            (
                try await WeeklyReport(week: week, context: AlertContext(store: logs.store, storedMaintenance: [], policy: logs.policy)).markdown,
                try await logs.context.episodeReports(from: week.startSeconds, to: week.endSeconds, stepSeconds: 60)
            )
        }
        let rows = review.matches(
            of:
                #/\n- \*\*(?<severity>PAGE|TICKET)\*\* incident (?<id>[0-9a-f-]+): .*?: bad from (?<bad>\S+), alerted (?<start>\S+) to (?<end>[^(]+) \(/#
        )
        .map { "\($0.output.severity) \($0.output.id) bad \($0.output.bad) from \($0.output.start) to \($0.output.end)" }
        let incidents = Dictionary(grouping: backtest, by: { $0.incident?.id ?? "" })
        let expected = incidents.map { id, episodes in
            let start = episodes.map(\.startsAt).min()!
            let end = episodes.contains { $0.endsAt == nil } ? nil : episodes.compactMap(\.endsAt).max()
            let bad = min(episodes[0].incident?.firstBadSeconds ?? start, start)
            // The highest severity within the week: W43's DoubleGrant paged on Sunday and went on as a ticket.
            let severity = episodes.map { $0.peakSeverity(from: week.startSeconds, until: week.endSeconds) }.max()!
            return "\(severity.rawValue.uppercased()) \(id) bad \(RFC3339.format(seconds: bad)) "
                + "from \(RFC3339.format(seconds: start)) to \(end.map { RFC3339.format(seconds: $0) } ?? "still firing")"
        }
        #expect(rows.sorted() == expected.sorted(), "\(review)")
        let kinds = Set(backtest.map(\.finding.kind))
        let named: [AlertFinding.Kind] =
            switch name {
            case "2026-W43": [.doubleGrant]
            case "2026-W45": [.successRateBurn, .cancelRateSpike]
            default: [.alreadyGrantedSpike]
            }
        #expect(named.allSatisfy(kinds.contains), "\(kinds)")
        if name == "2026-W46" { #expect(backtest.filter { $0.finding.kind == .alreadyGrantedSpike }.count == 1, "one 409-flood row") }
        if name == "2026-W43" {
            // The money at risk counts per product the double grants the alerts counted at the week's end; the
            // charges and refunds, without a store notification that week, are unknown.
            let atEnd = try await onDedicatedThread { try await logs.context.firingReports(at: week.endSeconds) }
            for report in atEnd where report.finding.kind == .doubleGrant {
                let evidence = try #require(report.finding.evidence as? GrantEvidence)
                let product = report.finding.labels.slice?.value ?? ""
                #expect(
                    review.contains(
                        "| App Store | \(product.replacing("_", with: "\\_")) | no data | – | no data | – | \(evidence.count) | no data | "),
                    "\(product): \(review)")
            }
            #expect(atEnd.filter { $0.finding.kind == .doubleGrant }.count == 5, "a DoubleGrant per product")
        }
        #expect(review.contains("\(incidents.count) incident\(incidents.count == 1 ? "" : "s") ("), "\(review)")
    }

    /// `serve --notify` to a Slack webhook at `time`: one message per incident, its headline naming the
    /// incident and counting its alerts, its attachments the alerts of `alerts --format slack`.
    private func expectNotifications(_ logs: SampleLogs, at time: Int64, agreeWith surfaces: AlertSurfaces) async throws {
        try await withReceiver { port, received in
            try await HTTPClientTransport.withTransport { transport in
                let notifier = AlertNotifier(
                    context: AlertContext(store: logs.store, storedMaintenance: [], policy: logs.policy, databasePath: logs.database),
                    intervalSeconds: 60,
                    sender: WebhookSender(url: URL(string: "http://127.0.0.1:\(port)/slack")!, format: .slack, transport: transport),
                    logger: quietLogger,
                    nowMillis: { 0 })
                var state = notifier.initialState
                await notifier.notify(at: time, state: &state)
                let bodies = await received.posts.map(\.body)
                let incidents = Dictionary(grouping: surfaces.reports, by: { $0.incident?.id ?? "" })
                #expect(
                    bodies.count == incidents.count, "\(RFC3339.format(seconds: time)): \(bodies.count) messages for \(incidents.count) incidents")
                for body in bodies {
                    let message = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] ?? [:]
                    let headline = message["text"] as? String ?? ""
                    let attachments = (message["attachments"] as? [[String: Any]] ?? []).flatMap {
                        ShownAlert.parse(slack: $0["text"] as? String ?? "")
                    }
                    let id = try #require(incidents.keys.first { headline.contains("incident \($0): ") }, "\(headline)")
                    let pages = incidents[id]!.filter { $0.severity == .page }.count
                    #expect(
                        headline.hasSuffix(": \(incidents[id]!.count) firing" + (pages == 0 ? "" : " (\(pages) page\(pages == 1 ? "" : "s"))")),
                        "\(headline)")
                    #expect(Set(attachments) == Set(surfaces.text.filter { $0.line("incident ")?.hasPrefix("incident \(id),") == true }), "\(body)")
                }
            }
        }
    }

    /// What each ChargedNotGranted alert counts is what its look-next command (`charges … --ungranted`,
    /// run as printed) lists as NOT GRANTED, and what the on-call page's reconciliation panel says; what
    /// each DoubleGrant or GrantedWithoutCharge alert counts is what its look-next command (`grants …
    /// --double` or `--uncharged`) lists.
    private func expectCharges(_ surfaces: AlertSurfaces) async throws {
        for alert in surfaces.text where alert.summary.contains("granted again") || alert.summary.contains("with no App Store charge") {
            let counted = try #require(
                alert.summary.firstMatch(of: #/: (\d+) (App Store transactions? granted again|grants? )/#).flatMap { Int($0.output.1) })
            let command = try #require(alert.line("look next: ")?.dropFirst("look next: ".count).split(separator: ";").first)
            let words = command.split(separator: " ").map(String.init)
            #expect(words.first == "purchase-sli" && words.dropFirst().first == "grants", "\(command)")
            let executable = try #require(builtExecutable)
            let (termination, output) = try await ChildProcess.run(executable, Array(words.dropFirst()), currentDirectory: packageRoot)
            #expect(termination == .exit(0), "\(output)")
            let listed = output.split(separator: "\n").filter { $0.contains("  granted again (") || $0.hasSuffix("  without a charge") }
            #expect(listed.count == counted, "\(command)\n\(output)")
        }
        for alert in surfaces.text where alert.summary.contains("App Store charge") {
            let counted = try #require(alert.summary.firstMatch(of: #/: (\d+) App Store charges? /#).flatMap { Int($0.output.1) })
            let command = try #require(alert.line("look next: ")?.dropFirst("look next: ".count).split(separator: ";").first)
            let words = command.split(separator: " ").map(String.init)
            #expect(words.first == "purchase-sli" && words.dropFirst().first == "charges", "\(command)")
            let executable = try #require(builtExecutable)
            let (termination, output) = try await ChildProcess.run(executable, Array(words.dropFirst()), currentDirectory: packageRoot)
            #expect(termination == .exit(0), "\(output)")
            #expect(output.components(separatedBy: " NOT GRANTED ").count - 1 == counted, "\(command)\n\(output)")
            if let oncall = surfaces.oncall {
                #expect(oncall.contains("<strong>\(counted) charge\(counted == 1 ? "" : "s") not granted"), "the reconciliation panel")
            }
        }
    }
}

/// An incident of the sample logs: the backtest range around it and the kind of its first alert.
struct SampleIncident: Sendable, CustomStringConvertible {
    var name: String
    var kind: AlertFinding.Kind
    var from: Int64
    var to: Int64

    var description: String { name }

    static let all = [
        SampleIncident(name: "outage", kind: .successRateBurn, from: seconds("2026-11-02T12:00:00Z"), to: seconds("2026-11-03T00:00:00Z")),
        SampleIncident(name: "cancel spike", kind: .cancelRateSpike, from: seconds("2026-11-05T12:00:00Z"), to: seconds("2026-11-06T06:00:00Z")),
        SampleIncident(name: "409 flood", kind: .alreadyGrantedSpike, from: seconds("2026-11-11T06:00:00Z"), to: seconds("2026-11-13T12:00:00Z")),
        SampleIncident(name: "payment detour", kind: .chargedNotGranted, from: seconds("2026-11-19T12:00:00Z"), to: seconds("2026-11-20T00:00:00Z")),
        SampleIncident(name: "double grant", kind: .doubleGrant, from: seconds("2026-10-25T12:00:00Z"), to: seconds("2026-10-26T00:00:00Z")),
    ]

    /// The minutes looked at: the incident's start, its peak (5 minutes after it reached its highest
    /// severity), each of its alerts' last minute and first minute over, the start of each later alert of
    /// it, its last minute firing, and half an hour after its end.
    struct Minutes {
        var incident: Incident
        var peak: Int64
        var after: Int64?
        var all: [Int64]
        /// The minutes `serve --notify` is checked at: the start of each alert, the peak and the last minute firing.
        var notified: Set<Int64>
    }

    func minutes(in backtest: [AlertReport]) throws -> Minutes {
        let incident = try #require(backtest.first { $0.finding.kind == kind }?.incident, "no \(kind.rawValue) from \(RFC3339.format(seconds: from))")
        let episodes = backtest.filter { $0.incident?.id == incident.id }
        let peakSeverity = incident.peakSeverity
        let peaked = episodes.compactMap { $0.severityChanges.first { $0.severity == peakSeverity }?.atSeconds }.min() ?? incident.startsAt
        let peak = min(peaked + 300, (incident.endsAt ?? to) - 60)
        var minutes: Set<Int64> = [incident.startsAt, peak]
        var notified = minutes
        for episode in episodes {
            notified.insert(episode.startsAt)
            minutes.insert(episode.startsAt)
            if let end = episode.endsAt, end < to { minutes.formUnion([end - 60, end]) }
        }
        let after = incident.endsAt.map { $0 + 1800 }.flatMap { $0 < to ? $0 : nil }
        if let after { minutes.insert(after) }
        let last = (incident.endsAt ?? to) - 60
        minutes.insert(last)
        notified.insert(last)
        return Minutes(incident: incident, peak: peak, after: after, all: minutes.sorted(), notified: notified)
    }
}

/// Every surface of the alerts at one minute, computed as each command and the server compute it.
struct AlertSurfaces {
    let time: Int64
    /// What `alerts --at` evaluates.
    let reports: [AlertReport]
    let text: [ShownAlert]
    let markdown: [ShownAlert]
    let slack: [ShownAlert]
    let alertmanager: [ShownAlert]
    /// The Alertmanager alerts' labels.
    let alertmanagerLabels: [[String: String]]
    /// The on-call page and the index rendered at `time`, when asked for.
    let oncall: String?
    let index: String?

    /// Blocks for seconds: call it on a thread of its own.
    init(_ logs: SampleLogs, at time: Int64, pages: Bool) async throws {
        self.time = time
        reports = try await logs.context.firingReports(at: time)
        let freshness = try await logs.context.freshness(at: time)
        text = ShownAlert.parse(text: AlertOutput.text(reports, now: time, freshness: freshness))
        markdown = ShownAlert.parse(markdown: AlertOutput.markdown(reports, now: time, freshness: freshness))
        slack = ShownAlert.parse(slack: AlertOutput.slack(reports, now: time, freshness: freshness))
        let json = AlertOutput.alertmanagerJSON(reports, now: time)
        alertmanager = try ShownAlert.parse(alertmanager: json)
        alertmanagerLabels = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []).map {
            $0["labels"] as? [String: String] ?? [:]
        }
        guard pages else {
            (oncall, index) = (nil, nil)
            return
        }
        let files = try await DashboardRenderer(
            definitions: logs.definitions,
            context: DashboardContext(store: logs.store, records: .empty, policy: logs.policy, atSeconds: time, rangeSeconds: 86_400),
            links: PageLinks(databasePath: logs.database)
        ).render(generatedAtSeconds: time)
        oncall = files.first { $0.name == "oncall.html" }?.html
        index = files.first { $0.name == "index.html" }?.html
    }

    /// Every surface shows `expected` (the backtest's episodes firing at the time): the same alerts, in
    /// the same order, at the severity they have at that minute, since their episode's start, in their
    /// incident, with the same words and numbers.
    func expectAgreement(with expected: [AlertReport], at time: Int64) {
        let when = RFC3339.format(seconds: time)
        func key(_ report: AlertReport, severity: Severity) -> String {
            "\(report.finding.identity.anchor) \(severity.rawValue) since \(report.startsAt) incident \(report.incident?.id ?? "none")"
        }
        let backtest = expected.map { report in
            key(report, severity: report.severityChanges.last { $0.atSeconds <= time }?.severity ?? report.severity)
        }
        #expect(Set(reports.map { key($0, severity: $0.severity) }) == Set(backtest), "\(when): alerts --at against the backtest")
        #expect(text.count == reports.count, "\(when): \(text)")
        for (report, shown) in zip(reports, text) {
            #expect(shown.label == report.severity.rawValue.uppercased(), "\(when): \(shown)")
            #expect(shown.line("since ")?.hasPrefix("since \(RFC3339.format(seconds: report.startsAt)) (") == true, "\(when): \(shown)")
            #expect(shown.line("incident ")?.hasPrefix("incident \(report.incident?.id ?? "?"), first bad minute ") == true, "\(when): \(shown)")
        }
        #expect(markdown == text, "\(when): Markdown\n\(markdown)\ntext\n\(text)")
        #expect(slack == text, "\(when): Slack\n\(slack)\ntext\n\(text)")
        #expect(alertmanager == text, "\(when): Alertmanager\n\(alertmanager)\ntext\n\(text)")
        #expect(alertmanagerLabels.map { $0["incident"] } == reports.map { $0.incident?.id }, "\(when)")
        #expect(alertmanagerLabels.map { $0["severity"] } == reports.map { $0.severity.rawValue }, "\(when)")
        guard let oncall, let index else { return }
        let cards = ShownAlert.parse(html: oncall)
        #expect(cards.map(\.withoutLinks) == text.map(\.withoutLinks), "\(when): on-call page\n\(cards)\ntext\n\(text)")
        let pages = reports.filter { $0.severity == .page }.count
        #expect(
            reports.isEmpty
                ? index.contains("<strong>No alert firing</strong>")
                : index.contains(
                    "<strong>\(reports.count) alert\(reports.count == 1 ? "" : "s") firing</strong> (\(pages) page\(pages == 1 ? "" : "s"))"),
            "\(when): the index's banner")
        let items = index.matches(
            of:
                #/<li><span class="status [a-z]+">(?<label>[A-Z]+)</span> <a href="oncall.html#(?<anchor>[^"]+)">.*? since (?<since>[0-9TZ:-]+) \([^)]*\)(?: · incident (?:<a href="[^"]+">)?(?<incident>[0-9a-f-]+)(?:</a>)?)?(?: · (?<cost>incident cost[^<]+))?</li>/#
        )
        .map { "\($0.output.label) \($0.output.anchor) \($0.output.since) \($0.output.incident ?? "none") \($0.output.cost ?? "no cost")" }
        #expect(
            items
                == reports.map { report in
                    "\(report.severity.rawValue.uppercased()) \(report.finding.identity.anchor) \(RFC3339.format(seconds: report.startsAt)) "
                        + "\(report.incident?.id ?? "none") "
                        + (report.costText.map { $0.rendered(.html) } ?? "no cost")
                }, "\(when): the index's list (with the incident's cost)")
    }
}

/// The sample logs ingested as `demo` does (every file of `sample-logs/` and the App Store
/// notifications of `sample-logs/store/`), with the shipped policy and dashboards.
struct SampleLogs: Sendable {
    let database: String
    let store: SQLiteBucketStore
    let policy: SLOPolicy
    let definitions: [DashboardDefinition]
    /// `alerts`' context on the database.
    var context: AlertContext { AlertContext(store: store, storedMaintenance: [], policy: policy, databasePath: database) }

    /// The sample logs of the suite running.
    @TaskLocal static var current: SampleLogs?

    static func get() throws -> SampleLogs { try #require(current, "the suite has no .sampleLogs trait") }

    /// A copy of the database in `directory`, for a test that writes to it (incident records).
    func copiedDatabase(in directory: TemporaryDirectory) throws -> String {
        let copy = directory.file("copy.sqlite")
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: database + suffix) {
            try FileManager.default.copyItem(atPath: database + suffix, toPath: copy + suffix)
        }
        return copy
    }

    /// The backtest's first incident whose first alert is `kind` between `from` and `to`, as the demo evaluates it.
    func incident(_ kind: AlertFinding.Kind, from: String, to: String) async throws -> Incident {
        let (from, to) = (RFC3339.parseMillis(from)! / 1000, RFC3339.parseMillis(to)! / 1000)
        let reports = try await onDedicatedThread { try await context.episodeReports(from: from, to: to, stepSeconds: 60) }
        return try #require(reports.first { $0.finding.kind == kind }?.incident)
    }
}

/// Ingests the sample logs into a temporary database once for a suite, removed after it.
struct SampleLogsTrait: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        let database = directory.file("samples.sqlite")
        let samples = packageRoot + "/sample-logs"
        let files = try FileManager.default.contentsOfDirectory(atPath: samples).filter { $0.hasSuffix(".ndjson.gz") }.sorted()
        try #require(try await run(["ingest", "--quiet", "--db", database] + files.map { samples + "/" + $0 }) == 0)
        try #require(
            try await run([
                "ingest-store", "--db", database, "--apple-root-ca", samples + "/store/apple-test-root.pem",
                "--apple-bundle-id", SimulateCommand.bundleID, samples + "/store/apple-notifications.ndjson.gz",
            ]) == 0)
        let logs = SampleLogs(
            database: database, store: try SQLiteBucketStore(path: database),
            policy: try SLOPolicy(yaml: String(contentsOfFile: packageRoot + "/dashboards/slos.yaml", encoding: .utf8)),
            definitions: try DashboardFiles.load(directory: packageRoot + "/dashboards"))
        try await SampleLogs.$current.withValue(logs) { try await function() }
        withExtendedLifetime(directory) {}
    }
}

extension Trait where Self == SampleLogsTrait {
    /// ``SampleLogs`` for the suite.
    static var sampleLogs: Self { SampleLogsTrait() }
}

/// A logger for warnings only (the notifier logs each round at info).
private let quietLogger: Logger = {
    var logger = Logger(label: "test")
    logger.logLevel = .warning
    return logger
}()

/// Seconds since the epoch of an RFC 3339 time.
func seconds(_ text: String) -> Int64 { RFC3339.parseMillis(text)! / 1000 }
