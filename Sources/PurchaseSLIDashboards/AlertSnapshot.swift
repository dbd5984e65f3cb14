public import PurchaseSLIAnalysis
public import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

/// The alerts a page shows: those firing at its time, and every episode over its range (for the
/// incident bands of its charts).
public struct AlertSnapshot: Sendable {
    /// The alerts firing at the page's time, most urgent first.
    public var firing: [AlertReport]
    /// Every alert episode over the range, with `endsAt` nil for those still firing.
    public var episodes: [AlertReport]
    /// When the newest event of each action arrived, at the page's time.
    public var freshness: DataFreshness
    /// The few words of each kind for chart bands (``AlertRule/shortName``).
    public var shortNames: [AlertFinding.Kind: String]
    /// The notification receivers failing every delivery, each with its stand-in (`serve`'s pages only).
    public var deliveryOutages: [NotificationDeliveries.Outage] = []

    /// Creates a snapshot of alerts of `rules` (by default the standard ones).
    public init(firing: [AlertReport], episodes: [AlertReport], freshness: DataFreshness, rules: [any AlertRule] = AlertRules.standard(for: .default))
    {
        self.firing = firing
        self.episodes = episodes
        self.freshness = freshness
        shortNames = Dictionary(rules.map { ($0.kind, $0.shortName) }, uniquingKeysWith: { first, _ in first })
    }

    /// A banner saying that a receiver has failed every notification for a while: red NOBODY NOTIFIED when
    /// the alerts on the page reached nobody through it, amber ALERTS REROUTED when a fallback took them;
    /// or nothing.
    func deliveryBanner(zone: TimeZoneOffsets) -> HTML {
        guard !deliveryOutages.isEmpty else { return "" }
        let failures = deliveryOutages.map { $0.text(zone: zone) }.joined(separator: "; ")
        let check: HTML = "Check the receiver; <code>purchase_sli_<wbr>notifications_<wbr>total</code> counts the failures.</div>"
        if NotificationDeliveries.areRerouted(deliveryOutages) {
            return "<div class=\"banner warn\"><strong>ALERTS REROUTED</strong> \(failures): on-call hears of what fires here only "
                + "through the fallback. " + check
        }
        return "<div class=\"banner bad\"><strong>NOBODY NOTIFIED</strong> \(failures): what fires here is not reaching on-call. " + check
    }

    /// A banner saying the data is stale or missing, or nothing when it is fresh: a page of old data
    /// must not read as a healthy present.
    func staleBanner(zone: TimeZoneOffsets) -> HTML {
        guard alertsCannotSeeThePresent else { return "" }
        return "<div class=\"banner warn\"><strong>\(FreshnessText.status(freshness))</strong> "
            + "\(FreshnessText.sentence(freshness, zone: zone)): no alert can fire on events that do not arrive, so nothing on this page "
            + "says how purchases go now.</div>"
    }

    /// A banner saying clients dropped events unsent in the last day, or nothing: counts that miss events
    /// must not read as complete, however fresh they are.
    func incompleteBanner(zone: TimeZoneOffsets) -> HTML {
        guard freshness.isIncomplete else { return "" }
        return "<div class=\"banner warn\"><strong>INCOMPLETE</strong> clients dropped \(FreshnessText.droppedEvents(freshness)) "
            + "unsent in the day before \(zone.timestamp(freshness.atSeconds)): their queues on disk were full (offline "
            + "for long, or sending refused). The rates on this page miss those events; "
            + "<code>purchase_sli_client_dropped_events_total</code> counts them as they are reported.</div>"
    }

    /// One report of each incident whose alerts stopped while charges it counted are still owed (its record
    /// resolved, not settled), oldest first: nothing fires, but the money is not back.
    var owing: [AlertReport] {
        var seen = Set<String>()
        return episodes.filter { report in
            guard let record = report.incidentRecord, record.status == .resolved, (record.owed?.count ?? 0) > 0,
                !firing.contains(where: { $0.incident?.id == record.id })
            else { return false }
            return seen.insert(record.id).inserted
        }
    }

    /// A banner naming each incident still owing charges ("incident 20261119-1641-b5ce28, resolved
    /// 2026-11-19 20:16 UTC: 15 charges still owed, 74.85 USD"), with the command that lists them, or
    /// nothing: an alert resolved is not money delivered.
    func owingBanner(zone: TimeZoneOffsets) -> HTML {
        let owing = owing
        guard !owing.isEmpty else { return "" }
        let items = owing.compactMap { report -> HTML? in
            guard let record = report.incidentRecord, let owed = record.owedText else { return nil }
            let id: HTML = report.incidentURL.map { HTML(trusted: "<a href=\"\(HTML.escape($0))\">\(record.id)</a>") } ?? "\(record.id)"
            let resolved = record.endsAt.map { ", resolved \(zone.timestamp($0))" } ?? ""
            return "<li>incident \(id)\(resolved): \(HTML(trusted: owed.rendered(.html, zone: zone)))"
                + (record.acknowledgementText.map { " · \(HTML(trusted: $0.rendered(.html, zone: zone)))" } ?? "") + "</li>"
        }
        return
            "<div class=\"banner warn\"><strong>STILL OWED</strong> \(owing.count == 1 ? "an incident whose alerts stopped" : "incidents whose alerts stopped") "
            + "with charges nobody has granted, refunded or written off yet (list them: <code>purchase-sli charges --ungranted</code>; "
            + "grant them: <code>purchase-sli make-whole</code>):<ul>\(HTML.joined(items))</ul></div>"
    }

    /// Whether the newest event of every action is older than the loss-of-signal window.
    var alertsCannotSeeThePresent: Bool { freshness.isStale() }

    /// The episodes as chart bands, only those of `actionType` when given; overlapping episodes are one
    /// band (a page when any of them is) whose tooltip names each.
    func bands(for actionType: String?, until end: Int64) -> [TimeSeriesChart.Band] {
        let spans = episodes.filter { actionType == nil || $0.finding.labels.actionType == actionType }.map { episode in
            let labels = episode.labelPairs.map { "\($0.0)=\($0.1)" }.joined(separator: ", ")
            return TimeSeriesChart.Band(
                startSeconds: episode.startsAt, endSeconds: episode.endsAt ?? end,
                label: "\(episode.severity.rawValue) \(episode.finding.kind.rawValue) \(labels)",
                caption: "\(episode.severity.rawValue.uppercased()) \((shortNames[episode.finding.kind] ?? episode.finding.kind.rawValue)) "
                    + (episode.finding.labels.slice.map { $0.value ?? "(none)" } ?? episode.finding.labels.actionType),
                isPage: episode.severity == .page)
        }.sorted { $0.startSeconds < $1.startSeconds }
        var merged: [TimeSeriesChart.Band] = []
        for span in spans {
            guard var last = merged.last, span.startSeconds <= last.endSeconds else {
                merged.append(span)
                continue
            }
            last.endSeconds = max(last.endSeconds, span.endSeconds)
            last.isPage = last.isPage || span.isPage
            if !last.label.contains(span.label) {
                last.label += "\n" + span.label
                last.caption += " + " + span.caption
            }
            merged[merged.count - 1] = last
        }
        return merged
    }
}
