public import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIStorage

/// The incidents' records of the app an ``AlertContext`` evaluates (or of every app): taken from the
/// alerts' evaluation and kept in the store, so that their figures are facts every surface reads. `serve`
/// updates them each minute (``update(with:at:)``), `incidents --rebuild` takes them again from the events
/// (``rebuild(from:at:)``); both take a record the same way (``AlertContext/record(of:at:)``), so a stored
/// record equals its rebuild at the same time.
public struct IncidentBook: Sendable {
    /// Why an incident could not be acknowledged.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The input at fault (`owner`, `note`), or nil when it is the incident: no record of it is kept.
        public let field: String?
        /// What is wrong and what to do.
        public let reason: String

        /// "owner: expected …", or the reason alone.
        public var description: String { field.map { "\($0): \(reason)" } ?? reason }
    }

    /// The longest owner and note, in Unicode scalars.
    public static let maximumOwnerLength = 200
    public static let maximumNoteLength = 1000

    /// The range `incidents` and `GET /v1/incidents` list when none is given: the 30 days before `time`,
    /// through its minute.
    public static func listedRange(at time: Int64) -> (from: Int64, to: Int64) { (time - 30 * .secondsPerDay, time + .secondsPerMinute) }

    private let context: AlertContext
    private let repository: IncidentRepository

    /// The book of `context`'s app, in its store.
    public init(context: AlertContext) {
        self.context = context
        repository = IncidentRepository(context.store.sql)
    }

    private var app: String { context.app ?? "" }

    /// Keeps `records` (those of the incidents an evaluation at `time` found firing, taken at `time`) and
    /// takes again every kept record still open or resolved: an open one no longer firing is looked up again
    /// to find its end (removed when no longer found, as a rebuild removes it); a resolved one has its
    /// figures taken again from its scope. Returns them all by start.
    public func update(with records: [IncidentRecord], at time: Int64) async throws -> [IncidentRecord] {
        var records = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let unsettled = try await repository.incidents(
            app: app, fromSeconds: .min, toSeconds: time + .secondsPerMinute,
            statuses: [IncidentRecord.Status.open.rawValue, IncidentRecord.Status.resolved.rawValue])
        for stored in unsettled where records[stored.id] != nil { records[stored.id]?.acknowledgement = stored.acknowledgement }
        for stored in unsettled where records[stored.id] == nil {
            let kept = try IncidentRecord(stored: stored)
            if kept.status == .open {
                let incident: Incident
                do {
                    incident = try await context.incident(id: kept.id, at: time)
                } catch is IncidentLookupError {
                    // Joined to an earlier incident by a later alert, or its events pruned: no longer found,
                    // removed as a rebuild would remove it (and not looked up again every round).
                    _ = try await repository.remove(app: app, id: kept.id)
                    continue
                }
                var ended = try await context.record(of: incident, at: time)
                ended.acknowledgement = kept.acknowledgement
                records[kept.id] = ended
            } else {
                let figures = try await context.figures(of: kept.scope, at: time)
                records[kept.id] = kept.retaken(cost: figures.cost, losses: figures.losses, owed: figures.owed, at: time)
            }
        }
        let sorted = records.values.sorted { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) }
        try await repository.save(sorted.map { try $0.stored() })
        return sorted
    }

    /// Takes again from the events the records of every incident with an alert firing from `from` to
    /// `time` (evaluated every minute, as `alerts --at` evaluates), read at `time`, and keeps them
    /// (``keep(_:from:through:)``). Returns the records, by start, and how many were removed.
    public func rebuild(from: Int64, at time: Int64) async throws -> (records: [IncidentRecord], removed: Int) {
        try await keep(context.episodeReports(from: from, to: time + .secondsPerMinute, stepSeconds: .secondsPerMinute), from: from, through: time)
    }

    /// Keeps the records that `reports` (an evaluation of every minute from `from` through `time`) carry,
    /// their acknowledgements kept, and removes the kept records not settled that started in that range but
    /// are not among them (a settled one is final, whatever the events still kept say). Returns the records,
    /// by start, and how many were removed.
    public func keep(_ reports: [AlertReport], from: Int64, through time: Int64) async throws -> (records: [IncidentRecord], removed: Int) {
        let records = Dictionary(reports.compactMap(\.incidentRecord).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let sorted = records.values.sorted { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) }
        try await repository.save(sorted.map { try $0.stored() })
        // A settled record is final: one the evaluation no longer finds (its events past their retention, an
        // alert of an older policy) is kept, not removed.
        let settled = try await repository.incidents(
            app: app, fromSeconds: from, toSeconds: time + .secondsPerMinute, statuses: [IncidentRecord.Status.settled.rawValue])
        let removed = try await repository.remove(
            app: app, startingFrom: from, to: time + .secondsPerMinute, keeping: Set(records.keys).union(settled.map(\.id)))
        return (try await self.records(from: from, to: time + .secondsPerMinute).filter { records[$0.id] != nil }, removed)
    }

    /// The kept records reaching into `[from, to)` of `statuses` (nil: any), by start.
    public func records(from: Int64, to: Int64, statuses: Set<IncidentRecord.Status>? = nil) async throws -> [IncidentRecord] {
        try await repository.incidents(app: app, fromSeconds: from, toSeconds: to, statuses: statuses.map { Set($0.map(\.rawValue)) })
            .map(IncidentRecord.init(stored:))
    }

    /// The kept records reaching into `[from, to)` whose alerts named app version `version` (an
    /// `appVersion` slice), by start: the incidents of a release.
    public func records(naming version: String, from: Int64, to: Int64) async throws -> [IncidentRecord] {
        try await records(from: from, to: to).filter { record in
            record.alerts.contains { $0.labels.slice?.dimension == .appVersion && $0.labels.slice?.value == version }
        }
    }

    /// The kept record of incident `id`, or nil.
    public func record(id: String) async throws -> IncidentRecord? {
        guard let start = IncidentReport.startSeconds(ofID: id) else { return nil }
        return try await repository.incident(app: app, id: id, startSeconds: start).map(IncidentRecord.init(stored:))
    }

    /// Keeps that `owner` took incident `id` on at `time`, saying `note`; returns its record.
    /// - Throws: ``Failure`` when no record of `id` is kept, or the owner or note is not printable text of
    ///   the allowed length.
    public func acknowledge(id: String, owner: String, note: String, at time: Int64) async throws -> IncidentRecord {
        guard let owner = PersonText.cleaned(owner, maximum: Self.maximumOwnerLength) else {
            throw Failure(field: "owner", reason: "expected who takes it on, 1 to \(Self.maximumOwnerLength) printable characters")
        }
        // A note may be left out; one given is held to the same rule as a name.
        let blank = note.unicodeScalars.allSatisfy(\.properties.isWhitespace)
        guard let note = blank ? "" : PersonText.cleaned(note, maximum: Self.maximumNoteLength) else {
            throw Failure(field: "note", reason: "expected at most \(Self.maximumNoteLength) printable characters on one line")
        }
        let acknowledgement = IncidentAcknowledgement(owner: owner, note: note, atSeconds: time)
        guard try await repository.acknowledge(app: app, id: id, acknowledgement), let record = try await record(id: id) else {
            throw Failure(
                field: nil,
                reason: "no incident \(id) is kept" + (context.app.map { " for app \($0)" } ?? "")
                    + " (see `purchase-sli incidents`; `purchase-sli incidents --rebuild` takes them from the events)")
        }
        return record
    }
}
