public import PurchaseSLICore

/// What an alert found, typed by its rule: the numbers that made it fire, and the words, the query to
/// run next and the chart that show them. Every output renders these; none knows the kinds.
public protocol AlertEvidence: Sendable, Hashable {
    /// One line: what is broken and how badly, for whom.
    func summary(of alert: AlertFinding) -> AlertText
    /// The numbers behind it, a line each (the common lines, since when, budget and errors, are added by
    /// the outputs).
    func details(of alert: AlertFinding) -> [AlertText]
    /// The command that shows what it counted, run as printed: the events of its span `[from, to]` (seconds:
    /// from the first minute it counted, ``AlertFinding/time`` less ``windowSeconds`` or earlier, to its end
    /// or the time read), or the charges or grants its evidence counted before `alert.time`, judged then.
    func lookNext(of alert: AlertFinding, from: Int64, to: Int64) -> LookNextCommand
    /// The window it judged, in seconds before the finding's time: where its top errors are read.
    var windowSeconds: Int64 { get }
    /// The outcome whose error descriptions explain it (failures of a burn, cancels of a cancel spike), or
    /// nil when they say nothing (409s carry no error, charges are listed one by one).
    var explainedBy: ResultType? { get }
    /// The metric a chart of the alert draws, or nil when no chart of events shows it (charges, refunds).
    var chartMetric: AlertChartMetric? { get }
    /// The objective whose error budget it spends, or nil.
    var objective: SLOPolicy.Objective? { get }
    /// How what it cost is counted, or nil when it cannot be told (no events arrive to count).
    var costMeasure: AlertCostMeasure? { get }
    /// Whether the alert is about a whole action's failures, so that the slices they concentrate in are worth
    /// naming (only where a slice's share of failures exceeds its share of traffic).
    var namesConcentration: Bool { get }
    /// The minute it started firing when the evidence itself knows (a loss of signal, from the last
    /// event), else nil: the evaluator walks back.
    var firingSince: Int64? { get }
    /// How the alert's series goes over the last `seconds` before the time it is read at, judged as the
    /// rule judges it ("last 15 min: success rate 99.2 % of 40 valid events: recovering"), or nil when the
    /// rule does not read events (charges, refunds).
    func current(_ counts: OutcomeCounts, over seconds: Int64, of alert: AlertFinding) -> AlertText?
    /// How many of what it counts had piled up by its time (charges not granted, grants no charge paid
    /// for), or nil for a rate: of an episode's findings at its highest severity, the one with the most is
    /// the one a resolved alert shows.
    var pileCount: Int? { get }
    /// The first minute the trouble shows in the events, as far as the evidence tells (the first failure
    /// in a burn's short window, the minute of the oldest charge not granted, the first silent minute),
    /// else nil.
    func firstBadSeconds(of alert: AlertFinding) -> Int64?
}

extension AlertEvidence {
    /// No error descriptions explain it.
    public var explainedBy: ResultType? { nil }
    /// No chart.
    public var chartMetric: AlertChartMetric? { nil }
    /// No objective.
    public var objective: SLOPolicy.Objective? { nil }
    /// Lost successes for an alert about the rate of events; else nothing.
    public var costMeasure: AlertCostMeasure? {
        if case .rate = chartMetric { return .lostSuccesses }
        return nil
    }
    /// No concentration.
    public var namesConcentration: Bool { false }
    /// Walked back by the evaluator.
    public var firingSince: Int64? { nil }
    /// Not told.
    public func current(_ counts: OutcomeCounts, over seconds: Int64, of alert: AlertFinding) -> AlertText? { nil }
    /// A rate: nothing piles up.
    public var pileCount: Int? { nil }
    /// Not known.
    public func firstBadSeconds(of alert: AlertFinding) -> Int64? { nil }

    /// Whether `other` is evidence of the same type with the same numbers.
    func isEqual(to other: any AlertEvidence) -> Bool {
        (other as? Self) == self
    }
}

/// What a chart of an alert draws.
public enum AlertChartMetric: Sendable, Hashable {
    /// A rate of the events (success, 409s, cancels, unfinished attempts).
    case rate(RateMetric)
    /// The number of events.
    case events
}

/// A command of `purchase-sli` to run next, as words: outputs quote them for a POSIX shell and add the
/// database option after the subcommand.
public struct LookNextCommand: Sendable, Hashable {
    /// The subcommand: `query`, `charges`.
    public var subcommand: String
    /// Its options and arguments, after the database option.
    public var arguments: [String]
    /// A note after the command, for a person ("each id: App Store Server API GET …").
    public var note: String?

    /// Creates a command.
    public init(_ subcommand: String, _ arguments: [String], note: String? = nil) {
        self.subcommand = subcommand
        self.arguments = arguments
        self.note = note
    }

    /// The command read in one app's view of the store (nil: every app's): `query` gains
    /// `--where app=…` and `charges` gains `--app …`, so that it shows what the alert counted.
    public func scoped(toApp app: String?) -> LookNextCommand {
        guard let app else { return self }
        switch subcommand {
        case "query": return LookNextCommand(subcommand, arguments + ["--where", "app=\(app)"], note: note)
        case "charges": return LookNextCommand(subcommand, arguments + ["--app", app], note: note)
        default: return self
        }
    }

    /// `query` over `[from, to]` of the alert's action and slice, with `extra` options.
    public static func query(of labels: SeriesLabels, from: Int64, to: Int64, _ extra: [String]) -> LookNextCommand {
        var arguments = ["--from", RFC3339.format(seconds: from), "--to", RFC3339.format(seconds: to), "--where", "actionType=\(labels.actionType)"]
        if let slice = labels.slice { arguments += ["--where", "\(slice.dimension.rawValue)=\(slice.value ?? "")"] }
        return LookNextCommand("query", arguments + extra)
    }
}
