public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// A postmortem draft of one incident (`purchase-sli incident ID`): its timeline, what it did to each
/// action, the slices that carried its failures, the top errors, what it cost, the charges it left
/// ungranted and when each was granted, the refunds of charges taken during it (with what store data they
/// rest on), and its alerts with the commands to look next.
public struct IncidentReport: Sendable {
    /// One moment of the timeline.
    public struct Moment: Sendable, Hashable {
        /// When, in seconds since the epoch.
        public var seconds: Int64
        /// What happened: "first bad minute", "first alert", "page", "peak", "recovery", "resolved", or an
        /// alert's own start, severity change or end.
        public var label: String
        /// The words that go with it.
        public var text: AlertText
    }

    /// What the incident did to one action over its span.
    public struct ActionImpact: Sendable {
        /// The action.
        public var actionType: String
        /// The one slice its alerts were about, or nil for the whole action (or several slices).
        public var scope: SeriesLabels.Slice?
        /// Its counts from the first bad minute to the end (or the time read).
        public var counts: OutcomeCounts
        /// The slices that carried its failures beyond their share of traffic.
        public var concentration: [SliceShare]
        /// Its most frequent error descriptions of failures and cancels, with their counts.
        public var topErrors: [(result: String, description: String, events: Int64)]

        /// Its successes per attempt (per valid event where the events count no attempts) at each step of
        /// ``trendStepSeconds`` from ``trendStartSeconds``: from before its first bad minute to after its end.
        public var trend: [Double?] = []
        /// The first step of ``trend``.
        public var trendStartSeconds: Int64 = 0
        /// The length of a step of ``trend``: a whole number of minutes, about 60 steps in all.
        public var trendStepSeconds: Int64 = .secondsPerMinute

        /// "purchase", or "purchase, productID=coins_500" for one slice.
        public var heading: String {
            actionType + (scope.map { ", \($0.dimension.rawValue)=\($0.value ?? "(none)")" } ?? "")
        }
    }

    /// The incident.
    public var incident: Incident
    /// The app it is about, nil for every app.
    public var app: String?
    /// When it was read, in seconds since the epoch (its end, or now while it goes on).
    public var readAtSeconds: Int64
    /// The timeline, in order.
    public var timeline: [Moment]
    /// What it did to each action its alerts were about, purchase first.
    public var impacts: [ActionImpact]
    /// Its record read at ``readAtSeconds`` (``AlertContext/record(of:at:)``, with the acknowledgement kept):
    /// its status, its cost, the charges still owed.
    public var record: IncidentRecord
    /// What it cost (its record's).
    public var cost: AlertCost { record.cost }
    /// The charges of the products it named that were taken during it and not granted within the grace
    /// time, with when each was granted (if it was), by charge time.
    public var lateCharges: [ChargeLedger.Charge]
    /// Refunds and revocations, within ``refundHorizonSeconds`` of their charge, of charges taken during it
    /// (of the products it named, else of every product), by time.
    public var refunds: [ChargeLedger.RefundCausation]
    /// Its alerts' episodes, each with its context and the command to look next.
    public var alerts: [AlertReport]
    /// What the stores' notifications cover of its span (first bad minute to its end), as known when read:
    /// what its charges not granted, refunds and store costs rest on.
    public var storeCoverage: StoreCoverage
    /// The zone its text and pages write times in (its JSON stays UTC).
    public var zone: TimeZoneOffsets = .utc

    /// How long after a charge taken during an incident a refund of it is counted: 14 days.
    public static let refundHorizonSeconds: Int64 = 14 * .secondsPerDay

    /// Whether its last alert has stopped.
    public var isOver: Bool { incident.endsAt != nil }
    /// The end of the span it covers: its end, or the time read.
    public var untilSeconds: Int64 { incident.endsAt.map { min($0, readAtSeconds) } ?? readAtSeconds }
}

/// Why an incident report cannot be made.
public struct IncidentLookupError: Error, CustomStringConvertible {
    /// The message.
    public var description: String
}

extension IncidentReport {
    /// The file name of an incident's page: `incident-20261112-0703-3fa2c1.html`, and for one app's
    /// incident `incident-20261112-0703-3fa2c1-com.example.app.html` (the app as ``AppSlug`` writes it, so
    /// that `serve` serves it and two apps never share a page).
    public static func fileName(ofID id: String, app: String?) -> String {
        "incident-\(id)\(app.map { "-" + AppSlug.of($0) } ?? "").html"
    }

    /// The minute an incident id names ("20261112-0703-3fa2c1" → 2026-11-12T07:03:00Z), or nil when `id` is
    /// not spelled as the alerts show ids.
    public static func startSeconds(ofID id: String) -> Int64? {
        let parts = id.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 8, parts[1].count == 4, parts[2].count == 6,
            parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit), parts[2].allSatisfy(\.isHexDigit)
        else { return nil }
        let (day, minute) = (Array(parts[0]), Array(parts[1]))
        let text = "\(String(day[0..<4]))-\(String(day[4..<6]))-\(String(day[6..<8]))T\(String(minute[0..<2])):\(String(minute[2..<4])):00Z"
        return RFC3339.parseMillis(text).map { $0 / .millisPerSecond }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
