public import PurchaseSLICore

/// Where incidents' records live (``StoredIncident``): one per app and id, its figures replaced as they
/// are taken again, its acknowledgement kept until a person gives another.
public protocol IncidentRecordStore: Sendable {
    /// Keeps each record, replacing the figures kept under its app and id but keeping the acknowledgement
    /// kept with them (a record's own acknowledgement is ignored); all or nothing.
    func save(_ incidents: [StoredIncident]) throws

    /// The records of `app` (nil: of every app) whose span reaches into `[fromSeconds, toSeconds)` (started
    /// before its end; not ended, or ended after its start) and whose status is among `statuses` (nil: any),
    /// by start, then app and id.
    func incidents(app: String?, fromSeconds: Int64, toSeconds: Int64, statuses: Set<String>?) throws -> [StoredIncident]

    /// Keeps `acknowledgement` with the record of `app` and `id`, replacing any before; false when no such
    /// record is kept.
    func acknowledge(app: String, id: String, _ acknowledgement: IncidentAcknowledgement) throws -> Bool

    /// Removes the records of `app` that started in `[fromSeconds, toSeconds)` but those of `keeping`
    /// (ids), and gives back how many: the incidents a rebuild of that range no longer finds.
    func removeIncidents(app: String, startingFrom fromSeconds: Int64, to toSeconds: Int64, keeping: Set<String>) throws -> Int
}

extension IncidentRecordStore {
    /// The record of `app` and `id`, or nil; read among those that started at the minute `id` names.
    public func incident(app: String, id: String, startSeconds: Int64) throws -> StoredIncident? {
        try incidents(app: app, fromSeconds: startSeconds, toSeconds: startSeconds + 60, statuses: nil).first { $0.id == id && $0.app == app }
    }
}
