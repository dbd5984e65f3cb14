public import PurchaseSLICore

/// One kind of alert: what it reads of the policy, how it finds alerts at a minute, how long they hold,
/// which of them another alert of its kind covers, and what they share with alerts of other kinds. The
/// evaluator, the firing timeline, incidents and every output go through a list of rules
/// (``AlertRules/standard(for:)``), as Prometheus's rule manager evaluates a list of `Rule`s.
public protocol AlertRule: Sendable {
    /// The kind of alert it raises.
    var kind: AlertFinding.Kind { get }
    /// A few words for a chart band: "burn", "409 spike".
    var shortName: String { get }
    /// How long an alert keeps firing after the rule last found it (0: only while found).
    var holdSeconds: Int64 { get }
    /// How far before the evaluation time the rule reads the minute series (the slices' and actions';
    /// what it reads of the actions' whole series or of the ledger is its own).
    var reachSeconds: Int64 { get }
    /// How far before the minutes it reads the rule looks at its own findings (the burn rule takes budget
    /// spent while paged out of a ticket's long window): what happened then changes what it finds now.
    var pastFindingsSeconds: Int64 { get }
    /// How many spike tests it makes at one time on what `context` reads: its share of the Bonferroni
    /// correction of the spike significance (0 for a rule that tests no spike under it). The context's
    /// ``AlertRuleContext/spikeSignificance`` is not divided yet: it is what the counts decide.
    func spikeTestCount(in context: AlertRuleContext) -> Int
    /// Whether it may need, minute by minute, a slice of `dimension` whose events over everything an
    /// evaluation reads add up to `totals`: a slice no rule needs is not read (a catalog of thousands of
    /// products sold a few times a week holds mostly such slices), and one a rule does not look at changes
    /// nothing it finds.
    func readsSlice(_ dimension: EventDimension, totals: OutcomeCounts) -> Bool
    /// The alerts its conditions find at `time`, and the series it has seen recover then.
    func evaluate(at time: Int64, in context: AlertRuleContext) -> AlertRuleOutcome
    /// Whether a firing alert of its kind is left out because another firing alert covers it (a plan's
    /// burn under the same page of its whole action). `firing` holds every kind's, one per alert.
    func isCovered(_ finding: AlertFinding, by firing: [AlertFinding]) -> Bool
    /// What the alert may share a cause with: alerts of any kind that overlap it in time and share one of
    /// these form one incident.
    func causes(of finding: AlertFinding) -> Set<IncidentCause>
}

extension AlertRule {
    /// It does not look at its own past findings.
    public var pastFindingsSeconds: Int64 { 0 }
    /// Nothing covers it.
    public func isCovered(_ finding: AlertFinding, by firing: [AlertFinding]) -> Bool { false }
    /// No spike test.
    public func spikeTestCount(in context: AlertRuleContext) -> Int { 0 }
    /// Every slice: a rule that does not say what it reads gets them all.
    public func readsSlice(_ dimension: EventDimension, totals: OutcomeCounts) -> Bool { true }
}

/// What a rule found at one time.
public struct AlertRuleOutcome: Sendable {
    /// The alerts its conditions find now.
    public var findings: [AlertFinding]
    /// The series that have recovered now: pages of this rule held for them stop at once. A list, looked
    /// through only for the rare page held, rather than a set every evaluation would hash.
    public var recovered: [SeriesLabels]

    /// Creates an outcome.
    public init(findings: [AlertFinding] = [], recovered: [SeriesLabels] = []) {
        self.findings = findings
        self.recovered = recovered
    }
}

/// What a rule reads at one evaluation time.
public struct AlertRuleContext: Sendable {
    /// The policy in force.
    public let policy: SLOPolicy
    /// The series restricted to the minutes the rules read (`[time − reach, time)`), so that a backtest
    /// and a live evaluation see the same.
    public let inputs: AlertInputs
    /// Everything read: each action's whole series (a loss of signal follows it back), the ledger.
    public let allInputs: AlertInputs
    /// The spike significance divided by every spike test made at this time (Bonferroni).
    public internal(set) var spikeSignificance: Double
    /// How far before the time the rules read (``AlertEvaluator/ruleReachSeconds``).
    public let reachSeconds: Int64
    /// What rules keep across the minutes of one evaluation run.
    public let run: AlertRun
}

/// What rules keep across the minutes of one evaluation run (a live evaluation, a walk back, a
/// backtest), each under its own key: the burn rule's paged minutes.
public final class AlertRun: @unchecked Sendable {
    private var values: [String: AnyObject] = [:]

    /// A run with nothing kept yet.
    public init() {}

    /// The value kept under `key`, made by `make` the first time. Not thread-safe: a run is evaluated on one thread.
    public func shared<Value: AnyObject>(_ key: String, make: () -> Value) -> Value {
        if let known = values[key] as? Value { return known }
        let made = make()
        values[key] = made
        return made
    }
}

/// Something alerts of different kinds can share, which joins them into one incident while they overlap:
/// an outage of the purchase flow, a product, an app version, the 409s of a retry loop.
public struct IncidentCause: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The cause's name: "outage purchase", "productID=coins_500".
    public let description: String

    /// A cause of this name.
    public init(_ description: String) {
        self.description = description
    }

    /// The purchase flow of an action failing as a whole (burns, silence, unfinished attempts of it, and
    /// the charges its failures left ungranted).
    public static func outage(of action: String) -> IncidentCause { IncidentCause("outage \(action)") }
    /// Something about one value of a dimension (a product, a plan, an app version).
    public static func slice(_ slice: SeriesLabels.Slice) -> IncidentCause {
        IncidentCause("\(slice.dimension.rawValue)=\(slice.value ?? "")")
    }

    /// By name.
    public static func < (lhs: IncidentCause, rhs: IncidentCause) -> Bool { lhs.description < rhs.description }
}
