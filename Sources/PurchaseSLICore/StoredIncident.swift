/// An incident's record as the store keeps it: the columns it is found by, its figures as one JSON
/// document (the analysis layer's `IncidentRecord`), and a person's acknowledgement, which a rebuild of
/// its figures keeps.
public struct StoredIncident: Sendable, Hashable {
    /// The app its alerts were evaluated for, or empty for every app.
    public var app: String
    /// Its id as the alerts show it (`20261112-0703-3fa2c1`).
    public var id: String
    /// When its first alert started firing (seconds).
    public var startSeconds: Int64
    /// When its last alert stopped (seconds), or nil while one fires.
    public var endSeconds: Int64?
    /// `open`, `resolved` or `settled`.
    public var status: String
    /// The time its figures were taken at (seconds).
    public var readAtSeconds: Int64
    /// Its figures, as JSON.
    public var document: String
    /// Who took it on, if anyone has.
    public var acknowledgement: IncidentAcknowledgement?

    /// A record of these columns.
    public init(
        app: String, id: String, startSeconds: Int64, endSeconds: Int64?, status: String, readAtSeconds: Int64, document: String,
        acknowledgement: IncidentAcknowledgement? = nil
    ) {
        self.app = app
        self.id = id
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.status = status
        self.readAtSeconds = readAtSeconds
        self.document = document
        self.acknowledgement = acknowledgement
    }
}

/// A person taking an incident on: who, what they say, and when (`purchase-sli incidents acknowledge`,
/// `POST /v1/incidents/ID/acknowledge`).
public struct IncidentAcknowledgement: Sendable, Hashable, Codable {
    /// Who owns it from now on (a name, a handle, a team).
    public var owner: String
    /// What they say: what is being done, where to follow it.
    public var note: String
    /// When (seconds).
    public var atSeconds: Int64

    /// An acknowledgement by `owner` at `atSeconds`.
    public init(owner: String, note: String, atSeconds: Int64) {
        self.owner = owner
        self.note = note
        self.atSeconds = atSeconds
    }
}
