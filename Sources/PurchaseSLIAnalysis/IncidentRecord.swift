import Foundation
public import PurchaseSLICore

/// An incident as a fact: its span, its alerts and their severities, what it cost and what is still owed,
/// taken at ``readAtSeconds`` from the events, the stores' notifications and the settlements known then.
/// Updated while open or owed, frozen once settled; every surface (alert text, notifications, pages, the
/// weekly review, `incidents`, `/v1/incidents`) reads its figures from here.
public struct IncidentRecord: Sendable, Hashable, Codable {
    /// Where it stands.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// An alert of it fires.
        case open
        /// Its alerts stopped, but charges it left are still owed or an alert may still fire again and
        /// continue it (``IncidentGrouping/reopenSeconds``): its figures can still change.
        case resolved
        /// Over, nothing owed: its figures are final.
        case settled
    }

    /// One of its alerts.
    public struct Alert: Sendable, Hashable, Codable {
        /// The alert kind.
        public var kind: AlertFinding.Kind
        /// What it was about.
        public var labels: SeriesLabels
        /// When it started firing.
        public var startsAt: Int64
        /// When it stopped, or nil while it fires.
        public var endsAt: Int64?
        /// Its severity from its start, and each change.
        public var severityChanges: [SeverityChange]

        /// The alert of `episode`.
        public init(_ episode: AlertEpisode) {
            kind = episode.first.kind
            labels = episode.first.labels
            startsAt = episode.startsAt
            endsAt = episode.endsAt
            severityChanges = episode.severityChanges
        }
    }

    /// Its id as the alerts show it.
    public var id: String
    /// The app its alerts were evaluated for, or nil for every app.
    public var app: String?
    /// Where it stands at ``readAtSeconds``.
    public var status: Status
    /// When its first alert started firing.
    public var startsAt: Int64
    /// The first minute the trouble showed in the events.
    public var firstBadSeconds: Int64
    /// When its last alert stopped, or nil while one fires.
    public var endsAt: Int64?
    /// When its figures were taken.
    public var readAtSeconds: Int64
    /// Its alerts, by start.
    public var alerts: [Alert]
    /// What its cost is counted over.
    public var scope: IncidentCostScope
    /// What it cost, each loss once (``IncidentCostScope``), as known at ``readAtSeconds``.
    public var cost: AlertCost
    /// When each loss of ``cost`` happened: what a week's share is read from.
    public var losses: LossTimeline
    /// The charges it left not granted that are still owed at ``readAtSeconds`` (neither granted, refunded,
    /// made whole nor written off); nil when it is not about charges.
    public var owed: ChargeTally?
    /// Who took it on; kept by the store beside the figures.
    public var acknowledgement: IncidentAcknowledgement?

    /// A record of these figures; its status follows from them (``status(endsAt:owed:at:)``).
    public init(
        incident: Incident, app: String?, readAtSeconds: Int64, cost: AlertCost, losses: LossTimeline, owed: ChargeTally?,
        acknowledgement: IncidentAcknowledgement? = nil
    ) {
        id = incident.id
        self.app = app
        startsAt = incident.startsAt
        firstBadSeconds = incident.firstBadSeconds
        endsAt = incident.endsAt
        self.readAtSeconds = readAtSeconds
        alerts = incident.episodes.sorted { ($0.startsAt, $0.first.identity) < ($1.startsAt, $1.first.identity) }.map(Alert.init)
        scope = IncidentCostScope(incident)
        self.cost = cost
        self.losses = losses
        self.owed = owed
        self.acknowledgement = acknowledgement
        status = Self.status(endsAt: incident.endsAt, owed: owed, at: readAtSeconds)
    }

    /// The record with its figures taken again at `time` from its stored scope, its alerts as they were:
    /// what a resolved incident's record becomes as grants, refunds and settlements arrive.
    public func retaken(cost: AlertCost, losses: LossTimeline, owed: ChargeTally?, at time: Int64) -> IncidentRecord {
        var record = self
        record.cost = cost
        record.losses = losses
        record.owed = owed
        record.readAtSeconds = time
        record.status = Self.status(endsAt: endsAt, owed: owed, at: time)
        return record
    }

    /// Open while an alert fires; resolved while a charge is owed or an alert could still fire again and
    /// continue it; settled after.
    public static func status(endsAt: Int64?, owed: ChargeTally?, at time: Int64) -> Status {
        guard let endsAt else { return .open }
        if (owed?.count ?? 0) > 0 || time < endsAt + IncidentGrouping.defaultReopenSeconds { return .resolved }
        return .settled
    }

    /// The highest severity any of its alerts reached.
    public var peakSeverity: Severity {
        alerts.flatMap(\.severityChanges).map(\.severity).max() ?? .ticket
    }

    /// When it first paged, if it did.
    public var firstPageSeconds: Int64? {
        alerts.flatMap(\.severityChanges).filter { $0.severity == .page }.map(\.atSeconds).min()
    }

    /// The actions its alerts were about, purchase first.
    public var actions: [String] { Set(alerts.map(\.labels.actionType)).sorted(by: ActionType.isListedBefore) }

    /// The products its alerts named, sorted.
    public var products: [String] {
        Set(alerts.compactMap { $0.labels.slice?.dimension == .productID ? $0.labels.slice?.value : nil }).sorted()
    }

    /// As the store keeps it: its figures as JSON (keys sorted, so that equal records are equal text).
    public func stored() throws -> StoredIncident {
        var figures = self
        figures.acknowledgement = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return StoredIncident(
            app: app ?? "", id: id, startSeconds: startsAt, endSeconds: endsAt, status: status.rawValue, readAtSeconds: readAtSeconds,
            document: String(decoding: try encoder.encode(figures), as: UTF8.self), acknowledgement: acknowledgement)
    }

    /// The record the store kept; throws when its document is not one (written by a later version).
    public init(stored: StoredIncident) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(stored.document.utf8))
        acknowledgement = stored.acknowledgement
    }
}
