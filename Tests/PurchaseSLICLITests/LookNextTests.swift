import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLISimulation
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// Every alert kind's "look next" command, run as printed (split into words as a POSIX shell splits the
/// printed text, in a child process), lists what the alert counted: the failures, cancels or 409s of its
/// window (and its top errors), the charges, grants or refunds its evidence names, the minutes before a
/// silence. While it fires its evidence is its latest finding's and the list is exactly it; once resolved,
/// its highest finding's, within what the command lists to its end.
@Suite(.sampleLogs) struct LookNextTests {
    /// An alert of the sample logs: its kind and slice, and either a minute it fires at (`alerts --at`) or a
    /// backtest range it ends in (`alerts --from --to`).
    struct SampleAlert: Sendable, CustomStringConvertible {
        var kind: AlertFinding.Kind
        var slice: String?
        var at: String?
        var backtest: (from: String, to: String)?

        var description: String {
            "\(kind.rawValue) \(slice ?? "") " + (at.map { "at \($0)" } ?? backtest.map { "resolved in \($0.from) to \($0.to)" } ?? "")
        }

        static func firing(_ kind: AlertFinding.Kind, _ slice: String? = nil, at: String) -> SampleAlert {
            SampleAlert(kind: kind, slice: slice, at: at)
        }

        static func resolved(_ kind: AlertFinding.Kind, _ slice: String? = nil, from: String, to: String) -> SampleAlert {
            SampleAlert(kind: kind, slice: slice, backtest: (from, to))
        }

        static let all: [SampleAlert] = [
            .firing(.successRateBurn, at: "2026-11-02T18:40:00Z"),
            .firing(.successRateBurn, at: "2026-11-08T07:00:00Z"),
            .firing(.successRateBurn, "appVersion=4.12.0", at: "2026-11-17T18:00:00Z"),
            .firing(.cancelRateSpike, "productID=coins_500", at: "2026-11-05T18:40:00Z"),
            .firing(.alreadyGrantedSpike, "appVersion=4.12.0", at: "2026-11-11T10:00:00Z"),
            .firing(.chargedNotGranted, "productID=coins_500", at: "2026-11-19T18:00:00Z"),
            .firing(.doubleGrant, "productID=coins_100", at: "2026-10-25T17:00:00Z"),
            .firing(.noEvents, at: "2026-11-20T01:00:00Z"),
            .firing(.refundSpike, "productID=coins_500", at: "2026-11-20T19:00:00Z"),
            // Resolved: the 11-02 outage, the double grants of 10-25 (16:00 to 19:40) and the payment detour.
            .resolved(.successRateBurn, from: "2026-11-02T12:00:00Z", to: "2026-11-03T00:00:00Z"),
            .resolved(.doubleGrant, "productID=coins_500", from: "2026-10-25T12:00:00Z", to: "2026-10-27T00:00:00Z"),
            .resolved(.doubleGrant, "productID=premium_yearly", from: "2026-10-25T12:00:00Z", to: "2026-10-27T00:00:00Z"),
            .resolved(.chargedNotGranted, "productID=coins_500", from: "2026-11-19T12:00:00Z", to: "2026-11-21T00:00:00Z"),
        ]
    }

    @Test(arguments: SampleAlert.all)
    func theLookNextOfAnAlertListsWhatItCounted(_ alert: SampleAlert) async throws {
        let logs = try SampleLogs.get()
        let (report, now) = try await onDedicatedThread { () async throws -> (AlertReport?, Int64) in
            if let at = alert.at {
                let time = seconds(at)
                return (try await logs.context.firingReports(at: time).first { alert.matches($0) }, time)
            }
            let (from, to) = (seconds(alert.backtest!.from), seconds(alert.backtest!.to))
            return (try await logs.context.episodeReports(from: from, to: to, stepSeconds: 60).first { alert.matches($0) && $0.endsAt != nil }, to)
        }
        let found = try #require(report, "no \(alert)")
        try await expectLookNext(of: found, now: now, listsWhatItCounted: alert.at != nil)
    }

    /// The 11-02 verification outage's report: its impact line gives the success rate as documented
    /// ((success + alreadyGranted) / valid), and its alert's top errors are the table's beside them.
    @Test func theIncidentReportGivesTheDocumentedRateAndOneCountOfErrors() async throws {
        let logs = try SampleLogs.get()
        let report = try await onDedicatedThread {
            try await logs.context.incidentReport(id: "20261102-1802-fef488", at: seconds("2026-11-20T00:00:00Z"))
        }
        let impact = try #require(report.impacts.first { $0.actionType == "purchase" })
        let counts = impact.counts
        #expect(counts.attempts == 162 && counts.valid == 154 && counts.success + counts.alreadyGranted == 58, "\(counts)")
        #expect(
            report.markdown.contains("162 attempts: 58 succeeded, 96 failed, 8 cancelled, 0 pending; success rate 37.7 % of 154 valid events"),
            "\(report.markdown)")
        let failures = impact.topErrors.filter { $0.result == ResultType.failure.rawValue }
        let alert = try #require(report.alerts.first)
        #expect(alert.topErrors.map(\.description) == failures.map(\.description))
        #expect(alert.topErrors.map(\.events) == failures.map(\.events), "alert \(alert.topErrors), table \(failures)")
        #expect(failures.first?.events == 96)
    }
}

/// The kinds the sample logs never raise, on the simulator's incidents (events and the App Store's
/// notifications in a database of their own): grants without a charge, charges granted late, unfinished
/// renewals. Each alert is read at a minute it fires, ten minutes after it started.
@Suite struct LookNextSimulatedTests {
    struct Incident: Sendable, CustomStringConvertible {
        var scenario: Scenario
        var kind: AlertFinding.Kind
        /// Days of steady traffic before it (spikes compare with the previous days).
        var historyDays: Int
        var attemptsPerMinute: Double

        var description: String { "\(kind.rawValue) in \(scenario.rawValue)" }

        static let all = [
            Incident(scenario: .replayedReceipt, kind: .grantedWithoutCharge, historyDays: 0, attemptsPerMinute: 10),
            Incident(scenario: .slowGrantQueue, kind: .timeToGrantBurn, historyDays: 0, attemptsPerMinute: 10),
            Incident(scenario: .renewalBatch, kind: .unfinishedPurchases, historyDays: 3, attemptsPerMinute: 30),
        ]
    }

    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test(arguments: Incident.all)
    func theLookNextOfAnAlertListsWhatItCounted(_ incident: Incident) async throws {
        let database = directory.file("\(incident.scenario.rawValue).sqlite")
        let (report, time) = try await onDedicatedThread { () async throws -> (AlertReport?, Int64) in
            let context = try await Self.simulate(incident, into: database)
            let start = seconds("2026-11-09T00:00:00Z")
            let episodes = try await context.episodeReports(from: start, to: start + 2 * 86_400, stepSeconds: 60)
            guard let first = episodes.first(where: { $0.finding.kind == incident.kind }) else { return (nil, start) }
            let time = first.startsAt + 600
            return (try await context.firingReports(at: time).first { $0.finding.identity == first.finding.identity }, time)
        }
        let found = try #require(report, "no \(incident.kind.rawValue) firing")
        try await expectLookNext(of: found, now: time, listsWhatItCounted: true)
    }

    /// `historyDays` of steady traffic, then 2 days of the scenario from 2026-11-09, with the App Store's
    /// notifications of its charges, each received by the end of the minute it was signed in.
    private static func simulate(_ incident: Incident, into database: String) async throws -> AlertContext {
        let store = try SQLiteBucketStore(path: database)
        let start = seconds("2026-11-09T00:00:00Z") * 1000
        let history = SimulationParameters(
            scenario: .steady, startMillis: start - Int64(incident.historyDays) * 86_400_000, days: incident.historyDays, seed: 4,
            attemptsPerMinute: incident.attemptsPerMinute)
        let run = SimulationParameters(
            scenario: incident.scenario, startMillis: start, days: 2, seed: 3, attemptsPerMinute: incident.attemptsPerMinute)
        let simulator = TrafficSimulator(run)
        func record(_ events: some Sequence<PurchaseEvent>) async throws {
            var batch: [PurchaseEvent] = []
            for event in events {
                batch.append(event)
                if batch.count == 20_000 {
                    _ = try await store.record(batch, receivedAtMillis: 0)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            _ = try await store.record(batch, receivedAtMillis: 0)
        }
        if incident.historyDays > 0 { try await record(TrafficSimulator(history)) }
        try await record(simulator)
        let notifications = SimulatedNotification.notifications(of: simulator.storeCharges, bundleID: SimulateCommand.bundleID)
        for minute in Dictionary(grouping: notifications, by: { $0.signedMillis / 60_000 }).sorted(by: { $0.key < $1.key }) {
            _ = try await store.record(minute.value, receivedAtMillis: (minute.key + 1) * 60_000)
        }
        return AlertContext(store: store, storedMaintenance: [], policy: .default, databasePath: database)
    }
}

extension LookNextTests.SampleAlert {
    func matches(_ report: AlertReport) -> Bool {
        let labels = report.finding.labels
        return report.finding.kind == kind && slice == labels.slice.map { "\($0.dimension.rawValue)=\($0.value ?? "")" }
    }
}

/// Runs `report`'s look-next command as printed in its text read at `now` and checks it lists what the
/// alert counted: exactly (`exact`, an alert firing at `now`), or among what it lists (a resolved alert's
/// highest finding, within the span to its end).
func expectLookNext(of report: AlertReport, now: Int64, listsWhatItCounted exact: Bool) async throws {
    // A resolved alert's block starts "RESOLVED PAGE  ".
    let shown = AlertOutput.text([report], now: now).replacingOccurrences(of: "RESOLVED ", with: "")
    let text = try #require(ShownAlert.parse(text: shown).first, "\(shown)")
    let printed = try #require(text.line("look next: ")).dropFirst("look next: ".count)
    let words = shellWords(String(printed))
    #expect(words.first == "purchase-sli", "\(printed)")
    let executable = try #require(builtExecutable)
    let (termination, output) = try await ChildProcess.run(executable, Array(words.dropFirst()), currentDirectory: packageRoot)
    #expect(termination == .exit(0), "\(printed)\n\(output)")
    let context = "\(printed)\n\(output)"
    let evidence = report.finding.evidence
    func same(_ listed: Int64, _ counted: Int64) {
        #expect(exact ? listed == counted : listed >= counted, "listed \(listed), counted \(counted): \(context)")
    }
    switch evidence {
    case let burn as BurnEvidence where burn.grantedWithinSeconds != nil:
        same(Int64(rows(of: output).count), (burn.rule.isExactTest ? burn.shortWindow : burn.longWindow).failure)
    case let burn as BurnEvidence:
        let table = QueryTable(output)
        same(table.sum("events"), (burn.rule.isExactTest ? burn.shortWindow : burn.longWindow).failure)
        expectTopErrors(of: report, in: table, context)
    case let cancels as CancelSpikeEvidence:
        let table = QueryTable(output)
        same(table.sum("events"), cancels.spike.observed)
        expectTopErrors(of: report, in: table, context)
    case let conflicts as AlreadyGrantedEvidence:
        let table = QueryTable(output)
        let version = report.finding.labels.slice?.value
        same(table.sum("409s", where: { version == nil || $0["appVersion"] == version }), conflicts.spike.observed)
    case let unfinished as UnfinishedEvidence:
        // The attempts of its window, settled or not: at least those it counted.
        #expect(QueryTable(output).sum("attempts") >= unfinished.spike.exposure, "\(context)")
    case let silence as SilenceEvidence:
        let table = QueryTable(output)
        let counted = table.rows.filter { Int64($0["events"] ?? "") ?? 0 > 0 }.compactMap { $0["time"].flatMap(RFC3339.parseMillis) }.map {
            $0 / 1000
        }
        #expect(counted.max() == (silence.silentSince - 60).floorDividedBy(300).quotient * 300, "the last event's 5 minutes: \(context)")
        #expect(table.rows.count > 1, "\(context)")
    case let charges as ChargeEvidence:
        let listed = rows(of: output).filter { $0.contains(" NOT GRANTED ") }
        same(Int64(listed.count), Int64(charges.ungranted))
        for charge in charges.oldest {
            #expect(listed.contains { $0.contains(charge.notification.transactionID ?? "?") }, "\(charge.notification): \(context)")
        }
    case let grants as GrantEvidence:
        let listed = rows(of: output).filter { $0.contains("  granted again (") || $0.hasSuffix("  without a charge") }
        same(Int64(listed.count), Int64(grants.count))
        for example in grants.examples {
            #expect(listed.contains { $0.contains(example.grant.record.transactionID) }, "\(example.grant.record): \(context)")
        }
    case let refunds as RefundSpikeEvidence:
        same(Int64(rows(of: output).count), refunds.spike.observed)
    default:
        Issue.record("no check of the look-next command of \(report.finding.kind.rawValue)")
    }
}

/// The alert's top errors are the rows of its look-next query, summed over products: one count of each.
private func expectTopErrors(of report: AlertReport, in table: QueryTable, _ context: String) {
    for error in report.topErrors {
        #expect(table.sum("events", where: { $0["errorDescription"] == error.description }) == error.events, "\(error): \(context)")
    }
}

/// The rows of a `charges` or `grants` table: the lines that start with a time.
private func rows(of output: String) -> [String] {
    output.split(separator: "\n").map(String.init).filter { $0.firstMatch(of: #/^\d{4}-\d\d-\d\dT\d\d:\d\d/#) != nil }
}

/// A `query` table: a header of column names, rows of values separated by two spaces or more.
struct QueryTable {
    var rows: [[String: String]] = []

    init(_ output: String) {
        let lines = output.split(separator: "\n").map(String.init)
        guard let header = lines.first else { return }
        let names = header.split(separator: "  ", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        for line in lines.dropFirst() {
            let values = line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard values.count == names.count else { continue }
            rows.append(Dictionary(uniqueKeysWithValues: zip(names, values)))
        }
    }

    /// The sum of a count column (written with thousands separators) over the rows `include` keeps.
    func sum(_ column: String, where include: ([String: String]) -> Bool = { _ in true }) -> Int64 {
        rows.filter(include).compactMap { $0[column].flatMap { Int64($0.replacingOccurrences(of: ",", with: "")) } }.reduce(0, +)
    }
}

/// The words of a command line as a POSIX shell splits them (blanks, `'…'`, `"…"`, `\`), up to an unquoted
/// `;`.
func shellWords(_ line: String) -> [String] {
    var words: [String] = []
    var word: String?
    var characters = line.makeIterator()
    while let character = characters.next() {
        switch character {
        case " ", "\t":
            if let finished = word { words.append(finished) }
            word = nil
        case ";":
            return words + (word.map { [$0] } ?? [])
        case "'":
            word = word ?? ""
            while let quoted = characters.next(), quoted != "'" { word!.append(quoted) }
        case "\"":
            word = word ?? ""
            while let quoted = characters.next(), quoted != "\"" {
                if quoted == "\\", let escaped = characters.next() { word!.append(escaped) } else { word!.append(quoted) }
            }
        case "\\":
            word = (word ?? "") + (characters.next().map { String($0) } ?? "")
        default:
            word = (word ?? "") + String(character)
        }
    }
    return words + (word.map { [$0] } ?? [])
}
