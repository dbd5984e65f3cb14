public import PurchaseSLIAnalysis
import PurchaseSLICore

/// An alert with the context a person on call needs: since when, where the failures concentrate, what
/// the errors say, how much budget is left.
public struct AlertReport: Sendable {
    /// What fired, with its numbers.
    public var finding: AlertFinding
    /// When it started firing (seconds since the epoch).
    public var startsAt: Int64
    /// When it stopped (backtests), or nil while it fires.
    public var endsAt: Int64?
    /// The most frequent error descriptions of its span (``countedFromSeconds`` to its end or the time read),
    /// most first: what its look-next command lists.
    public var topErrors: [(description: String, events: Int64)]
    /// The first minute the trouble showed in the events, as its first finding's evidence tells, or nil.
    public var firstBadSeconds: Int64?
    /// The slices that hold far more of the failures over the alert's window than of its traffic, largest
    /// share first.
    public var concentration: [SliceShare]
    /// How its series goes over the last minutes before the time it is read at, as its rule judges it.
    public var current: AlertText?
    /// The share of the error budget left over the objective's window (negative when overspent).
    public var budgetRemaining: Double?
    /// How much of the objective's window the budget rests on; said when partial ("2 days of data").
    public var budgetBasis: BudgetBasis?
    /// What it cost from the first bad minute to its end (or the time it is read at): the purchases that
    /// would have succeeded at the usual rate and their worth, or the charges or refunds it names in full;
    /// nil when nothing can be told (a loss of signal).
    public var cost: AlertCost?

    /// The line that says what it cost: its incident's (``IncidentRecord/costText``), counted once for all
    /// the incident's alerts, with the charges still owed; without a record, its own ("cost so far: ≈ 57
    /// purchases (41–73) …", or "cost:" once it is over).
    public var costText: AlertText? { incidentRecord.map { $0.costText } ?? cost?.text(isOver: endsAt != nil) }
    /// Its severity from `startsAt`, and each change of it, in order (empty: the finding's all along).
    public var severityChanges: [SeverityChange]
    /// The database its "look next" query reads (`--db`), or nil to leave the option out.
    public var databasePath: String?
    /// The address of the dashboard page that shows it (with its anchor), or nil without a base URL.
    public var pageURL: String?
    /// Who owns the objective of its action (a team), from the policy.
    public var owner: String?
    /// The runbook of its action's objective, from the policy.
    public var runbookURL: String?
    /// The incident it belongs to, with the other alerts of it.
    public var incident: Incident?
    /// Its incident's record as kept when it was sent (``IncidentRecord``): the incident's cost and the
    /// charges still owed, which its text shows; nil where no record is kept.
    public var incidentRecord: IncidentRecord?
    /// The address of its incident's report (`incident-….html` beside the pages), or nil without pages.
    public var incidentURL: String?
    /// The app it was evaluated for (`--app`: one app's view of a store several apps write to), or nil
    /// for every app. Its labels, headline and look-next commands name it.
    public var app: String?

    /// The first minute of its span: the earliest of its start, its first bad minute and the start of the
    /// window its finding's evidence counted. Its top errors and look-next command read from here.
    public var countedFromSeconds: Int64 {
        min(startsAt, firstBadSeconds ?? startsAt, finding.time - finding.evidence.windowSeconds)
    }

    /// Its labels as (name, value) pairs: the app when evaluated for one (unless the finding is about an
    /// `app` slice, which names it), then the finding's.
    public var labelPairs: [(String, String)] {
        let named = finding.labels.slice?.dimension == .app
        return (named ? [] : app.map { [("app", $0)] } ?? []) + finding.labels.pairs
    }

    /// What it is labelled with: while it fires, its severity now (a page that calmed to a ticket is a
    /// ticket, in its text, its badge and its notifications alike); once over, the highest it reached,
    /// unless ``resolvedSeverity`` says otherwise.
    public var severity: Severity {
        guard endsAt != nil else { return finding.severity }
        return resolvedSeverity ?? severityChanges.map(\.severity).max().map { max($0, finding.severity) } ?? finding.severity
    }
    /// The highest severity it had in `[from, until)` (a week): the one in effect at `from` and every
    /// change before `until`; the finding's all along when it never changed. A page on Sunday afternoon
    /// counts in that week even while the alert goes on as a ticket into the next.
    public func peakSeverity(from: Int64, until: Int64) -> Severity {
        guard !severityChanges.isEmpty else { return finding.severity }
        let atStart = severityChanges.last { $0.atSeconds <= from }.map { [$0.severity] } ?? []
        let during = severityChanges.filter { $0.atSeconds > from && $0.atSeconds < until }.map(\.severity)
        return (atStart + during).max() ?? finding.severity
    }
    /// The severity a resolved notification keeps: the one its alert was sent with while firing, so that
    /// the receiver resolves that alert.
    public var resolvedSeverity: Severity?

    /// Creates a report.
    public init(
        finding: AlertFinding, startsAt: Int64, endsAt: Int64? = nil, topErrors: [(description: String, events: Int64)] = [],
        concentration: [SliceShare] = [], budgetRemaining: Double? = nil,
        severityChanges: [SeverityChange] = []
    ) {
        self.severityChanges = severityChanges
        self.finding = finding
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.topErrors = topErrors
        self.concentration = concentration
        self.budgetRemaining = budgetRemaining
    }
}
