public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// The words for how recent the data is, the same in every output.
public enum FreshnessText {
    /// "last event 3 min ago (2026-11-22T17:57:00Z)", with "STALE: " before it when the data is stale,
    /// or "NO DATA: no event before …" when there is none; for the whole feed, "· INCOMPLETE: …" after it
    /// when clients dropped events unsent.
    public static func line(_ freshness: DataFreshness, action: String? = nil, zone: TimeZoneOffsets = .utc) -> String {
        let status = status(freshness, action: action)
        return (status == "OK" ? "" : status + ": ") + sentence(freshness, action: action, zone: zone)
            + (action == nil ? incompleteness(freshness, zone: zone).map { " · " + $0 } ?? "" : "")
    }

    /// "INCOMPLETE: clients dropped 1,234 events unsent in the day before … (2.1 % of its events)", or
    /// nil when too few did to change a rate (``DataFreshness/isIncomplete``).
    public static func incompleteness(_ freshness: DataFreshness, zone: TimeZoneOffsets = .utc) -> String? {
        guard freshness.isIncomplete else { return nil }
        return "INCOMPLETE: clients dropped \(droppedEvents(freshness)) unsent in the day before "
            + "\(zone.timestamp(freshness.atSeconds)) (their queues on disk were full): the counts miss them"
    }

    /// "1,234 events (2.1 % of the day's events)": how many were dropped and what share they are.
    public static func droppedEvents(_ freshness: DataFreshness) -> String {
        "\(NumberText.count(freshness.clientDroppedEvents)) events (\(NumberText.percent(freshness.droppedShare)) of the day's events)"
    }

    /// "last event 3 min ago (2026-11-22T17:57:00Z)" or "no event before …", without a status word.
    public static func sentence(_ freshness: DataFreshness, action: String? = nil, zone: TimeZoneOffsets = .utc) -> String {
        let what = "\(action.map { "\(TerminalText.sanitized($0)) " } ?? "")event"
        guard let newest = freshness.newestEvent(of: action), let age = freshness.age(of: action) else {
            return "no \(what) before \(zone.timestamp(freshness.atSeconds))"
        }
        return "last \(what) \(age < .secondsPerMinute ? "under a minute" : NumberText.duration(age)) ago (\(zone.timestamp(newest)))"
    }

    /// The status word of `action` when no alert fires for it: OK, STALE or NO DATA.
    public static func status(_ freshness: DataFreshness, action: String? = nil) -> String {
        freshness.newestEvent(of: action) == nil ? "NO DATA" : freshness.isStale(action) ? "STALE" : "OK"
    }
}
