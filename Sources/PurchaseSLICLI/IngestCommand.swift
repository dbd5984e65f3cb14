import ArgumentParser
import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDecoding
import PurchaseSLIRendering

/// `purchase-sli ingest`: counts the events of files into the store.
struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Count the events of files (NDJSON or JSON arrays, New Relic or OTLP payloads; plain or gzip) into the database.",
        discussion: """
            Every valid event is counted, even when other records of the file are bad; each rejected record \
            is reported with its line, field and reason. An eventID already counted (within the 8-day dedup \
            horizon) is skipped as a duplicate, so re-running an interrupted ingest gives exactly the same \
            counts. Events of any age are accepted; a timestamp more than 5 minutes ahead of this machine's \
            clock is rejected.

            --format newrelic reads New Relic Event API payloads (JSON arrays of flat objects) and counts \
            the events of the purchase SLI event type; --format otlp reads OTLP/HTTP JSON logs (one export \
            request, or JSON Lines of them as the OpenTelemetry Collector's file exporter writes) and counts \
            the log records of the purchase SLI event name. Records of other kinds are ignored and counted.

            Exit status: 0 when every record was accepted, 2 when some were rejected, 1 when an error \
            stopped the run.
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: "The files' format: events (the event format), newrelic (New Relic Event API payloads) or otlp (OTLP/HTTP JSON logs).")
    var format: IngestFormat = .events

    @Option(name: .customLong("newrelic-event-type"), help: "With --format newrelic: the eventType of purchase SLI events.")
    var newRelicEventType = EventFormat.defaultNewRelicEventType

    @Option(name: .customLong("otlp-event-name"), help: "With --format otlp: the event name of purchase SLI log records.")
    var otlpEventName = EventFormat.defaultOTLPEventName

    @Option(help: ArgumentHelp("Write every rejected record as NDJSON to this file.", valueName: "file"))
    var rejects: String?

    @OptionGroup(title: "Limits and retention") var retention: RetentionOptions

    @Option(
        help: ArgumentHelp(
            "The policy whose apps: section gives apps caps of their own (YAML; default: slos.yaml of --dashboards when present).",
            valueName: "file"))
    var policy: String?

    @Option(help: ArgumentHelp("Directory whose slos.yaml is the policy when --policy is not given.", valueName: "dir"))
    var dashboards = "dashboards"

    @Option(help: "Records longer than this many bytes are rejected.")
    var maxRecordBytes: Int = 1 << 20

    @Flag(help: "Print only the summary, not each rejected record.")
    var quiet = false

    @Argument(help: ArgumentHelp("Event files; - reads standard input. .gz or gzip content is decompressed.", valueName: "file"))
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one file to ingest (- for standard input).") }
        guard maxRecordBytes >= 256 else { throw ValidationError("--max-record-bytes must be at least 256.") }
    }

    func run() async throws {
        try await exitingOnFailure { try await ingest() }
    }

    private func ingest() async throws {
        var configuration = try retention.configuration()
        configuration.appCaps = try SLOPolicy.load(path: policy, directory: dashboards).appCaps
        let store = try await store.openOrCreateStore(configuration: configuration)
        let started = ContinuousClock.now
        let nowMillis = WallClock.system.nowMillis
        let eventFormat: EventFormat =
            switch format {
            case .events: .events
            case .newrelic: .newRelic(eventType: newRelicEventType)
            case .otlp: .otlpLogs(eventName: otlpEventName)
            }
        let ingester = EventFileIngester(
            format: eventFormat, validator: EventValidator(nowMillis: nowMillis), batchSize: 16_384, maximumRecordBytes: maxRecordBytes)
        var rejectReport = try rejects.map { try RejectReport(path: $0) }
        var rejectedCount = 0
        var warningCount = 0
        var ignoredCount = 0
        let writer = BatchWriter(store: store, receivedAtMillis: nowMillis)
        var failure: (any Error)?
        do {
            try await onOneThread {
                for file in files {
                    ignoredCount += try await ingester.ingest(path: file, submit: writer.submit) { name, reject in
                        if reject.kept { warningCount += 1 } else { rejectedCount += 1 }
                        try rejectReport?.write(reject, file: name)
                        let shown = rejectedCount + warningCount
                        if !quiet && shown <= 20 {
                            // Event text reaches the terminal only with its control and bidi characters marked.
                            // An OTLP record is named by its index; its line is where its request begins.
                            let place =
                                switch (format, reject.line) {
                                case (.otlp, let line?): "\(name): record \(reject.index) (of the request on line \(line))"
                                case (_, let line?): "\(name):\(line)"
                                case (_, nil): "\(name): record \(reject.index)"
                                }
                            printError(
                                TerminalText.sanitized(
                                    "\(place): \(reject.field): \(reject.reason)"
                                        + (reject.kept ? " (left out; the event was counted)" : "")))
                        } else if !quiet && shown == 21 {
                            printError("… more are not shown\(rejects == nil ? "; use --rejects FILE for all" : "")")
                        }
                    }
                }
            }
        } catch {
            failure = error
        }
        let outcome = try await writer.finish(pruningAt: nowMillis)
        try rejectReport?.close()
        let seconds = started.duration(to: .now) / .seconds(1)
        print(IngestSummary(outcome: outcome, rejected: rejectedCount, warnings: warningCount, ignored: ignoredCount, seconds: seconds).text)
        if let failure { throw failure }
        if rejectedCount > 0 { throw ExitCode(2) }
    }
}

/// The `--rejects` file.
struct RejectReport {
    private let handle: FileHandle
    private var pending = ""

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CommandFailure(message: "cannot write --rejects file \(path)")
        }
        self.handle = handle
    }

    mutating func write(_ reject: RecordReject, file: String) throws {
        pending += reject.jsonLine(file: file) + "\n"
        if pending.utf8.count > 1 << 16 { try flush() }
    }

    mutating func close() throws {
        try flush()
        try handle.close()
    }

    private mutating func flush() throws {
        try handle.write(contentsOf: Data(pending.utf8))
        pending = ""
    }
}

/// The summary `ingest` prints.
struct IngestSummary {
    let outcome: RecordOutcome
    let rejected: Int
    /// Optional fields left out of counted events.
    let warnings: Int
    /// Records of other kinds (New Relic event types, OTLP event names), not purchase SLIs.
    let ignored: Int
    let seconds: Double

    /// Whose budget `dimension` overflowed in, most events first: each app (terminal-safe), "no app".
    private func byApp(of dimension: String) -> String {
        guard dimension != EventDimension.app.rawValue else { return "" }
        let apps = outcome.overflowedByApp.compactMap { app, counts in counts[dimension].map { (app: app, events: $0) } }
            .sorted { ($1.events, $0.app) < ($0.events, $1.app) }
        guard apps.contains(where: { !$0.app.isEmpty }) else { return "" }
        let shown = apps.prefix(5).map { "\($0.app.isEmpty ? "no app" : TextEscaping.terminal.escape($0.app)) \($0.events)" }
        return ": " + shown.joined(separator: ", ") + (apps.count > 5 ? " and \(apps.count - 5) more apps" : "")
    }

    var text: String {
        var lines = ["accepted    \(outcome.accepted)"]
        if let range = outcome.timeRange {
            lines[0] += "  (event times \(RFC3339.format(millis: range.lowerBound)) to \(RFC3339.format(millis: range.upperBound)))"
        }
        lines.append("duplicates  \(outcome.duplicates)")
        lines.append("rejected    \(rejected)")
        if warnings > 0 { lines.append("warnings    \(warnings) optional fields left out (their events were counted)") }
        if ignored > 0 { lines.append("ignored     \(ignored) records of other kinds (not purchase SLIs)") }
        for (dimension, events) in outcome.overflowed.sorted(by: { $0.key < $1.key }) {
            let cap =
                switch dimension {
                case "series": "series cap: their action's and app's __other__ series"
                case EventDimension.app.rawValue: "cardinality cap: apps per day"
                default: "cardinality cap"
                }
            lines.append("overflow    \(dimension): \(events) events counted as \(EventDimension.overflowValue) (\(cap))" + byApp(of: dimension))
        }
        let processed = Double(outcome.accepted + outcome.duplicates + rejected)
        let rate = seconds > 0 ? Int((processed / seconds).rounded()) : 0
        lines.append(String(format: "took        %.2f s, %d events/s", seconds, rate))
        return lines.joined(separator: "\n")
    }
}

/// Writes a line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// The formats `ingest --format` reads.
enum IngestFormat: String, ExpressibleByArgument, CaseIterable {
    case events, newrelic, otlp
}
