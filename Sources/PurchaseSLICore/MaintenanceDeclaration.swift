/// A maintenance window as a person declares it, in the policy file, on the command line or in the JSON of
/// `POST /v1/maintenance`: times and durations as text, read into a ``MaintenanceWindow`` with each error
/// naming its field.
public struct MaintenanceDeclaration: Sendable, Hashable, Codable {
    /// Its name (letters, digits, `.`, `_`, `-`, at most 64, not `policy-…`), or none for a new `mw-…` one.
    public var id: String?
    /// When it starts (``TimeArgument``: RFC 3339, a UTC date, `now`, `now-2h`).
    public var from: String
    /// When it ends; give this or ``duration``.
    public var to: String?
    /// How long each occurrence lasts (`2h`, `30m`); give this or ``to``.
    public var duration: String?
    /// When it comes back (``RecurrenceRule``), e.g. `FREQ=WEEKLY;BYDAY=SU`.
    public var rrule: String?
    /// The actions it leaves out; none: every action.
    public var actions: [String]?
    /// Why.
    public var reason: String
    /// The app it concerns; none: every app (or the one a scoped store serves).
    public var app: String?
    /// Whether to keep it even though maintenance would cover more than the most allowed of some 28 days
    /// (`MaintenanceScheduling` checks); a recurrence whose occurrences run into each other is never kept.
    public var force: Bool?

    /// Creates a declaration.
    public init(
        id: String? = nil, from: String, to: String? = nil, duration: String? = nil, rrule: String? = nil, actions: [String]? = nil, reason: String,
        app: String? = nil, force: Bool? = nil
    ) {
        self.id = id
        self.from = from
        self.to = to
        self.duration = duration
        self.rrule = rrule
        self.actions = actions
        self.reason = reason
        self.app = app
        self.force = force
    }

    /// The window declared, named ``id`` or else `id`, checked (``MaintenanceWindow/validated()``);
    /// relative times are read against `nowSeconds`.
    /// - Throws: ``MaintenanceWindowError`` naming the field at fault.
    public func window(id newID: String, createdSeconds: Int64?, source: MaintenanceWindow.Source, nowSeconds: Int64) throws -> MaintenanceWindow {
        if let id {
            guard (1...64).contains(id.utf8.count), id.utf8.allSatisfy({ $0.isASCIIIdentifierByte }), !id.hasPrefix("policy-") else {
                throw MaintenanceWindowError(field: "id", "expected 1 to 64 letters, digits, '.', '_' or '-' (not policy-…), got \(id)")
            }
        }
        guard let start = TimeArgument(from, nowSeconds: nowSeconds) else {
            throw MaintenanceWindowError(field: "from", "expected \(TimeArgument.forms), got \(from)")
        }
        let end: Int64
        switch (to, duration) {
        case (let to?, nil):
            guard let parsed = TimeArgument(to, nowSeconds: nowSeconds) else {
                throw MaintenanceWindowError(field: "to", "expected \(TimeArgument.forms), got \(to)")
            }
            end = parsed.seconds
        case (nil, let duration?):
            guard let step = TimeStep(parsing: duration) else {
                throw MaintenanceWindowError(field: "duration", "expected a duration such as 30m, 2h or 1d, got \(duration)")
            }
            end = start.seconds + step.seconds
        case (nil, nil):
            throw MaintenanceWindowError(field: "to", "give the end (to) or the length (duration)")
        case (.some, .some):
            throw MaintenanceWindowError(field: "duration", "give to or duration, not both")
        }
        if let app {
            do throws(EventValidationError) {
                guard !app.isEmpty else { throw EventValidationError(field: "app", reason: "must not be empty") }
                try EventValidator.checkIdentifier(app, .app, maximumLength: EventDimension.app.maximumLength!)
            } catch {
                throw MaintenanceWindowError(field: "app", error.reason)
            }
        }
        let recurrence: RecurrenceRule?
        do {
            recurrence = try rrule.map(RecurrenceRule.init(parsing:))
        } catch let error as RecurrenceRuleError {
            throw MaintenanceWindowError(field: "rrule", error.description)
        }
        return try MaintenanceWindow(
            id: id ?? newID, app: app ?? "", startSeconds: start.seconds, endSeconds: end, recurrence: recurrence, actions: actions ?? [],
            reason: reason,
            createdSeconds: createdSeconds, source: source
        ).validated()
    }
}

extension UInt8 {
    /// A letter, digit, `.`, `_` or `-`: what a window's id may hold.
    fileprivate var isASCIIIdentifierByte: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || self == 0x2E || self == 0x5F || self == 0x2D
    }
}
