/// Planned work, or a correction after the fact, whose minutes are left out of the error budgets and
/// burn-rate alerts of some actions (spikes and charges not granted still alert: money is money). Declared
/// in the policy (`maintenance:`), with `purchase-sli maintenance add`, or through `POST /v1/maintenance`.
public struct MaintenanceWindow: Sendable, Hashable {
    /// Where it was declared: the policy file's windows cannot be removed but by editing it.
    public enum Source: String, Sendable, Hashable {
        case policy
        case stored
    }

    /// Its name: `mw-…` for a stored one, `policy-N` for the policy's N-th (from 1).
    public var id: String
    /// The app it concerns, or empty for every app.
    public var app: String
    /// The first occurrence, `[startSeconds, endSeconds)`; each later one lasts as long.
    public var startSeconds: Int64
    public var endSeconds: Int64
    /// When it comes back, or nil for a one-off.
    public var recurrence: RecurrenceRule?
    /// The actions it leaves out; empty: every action.
    public var actions: [String]
    /// Why (an announced store outage, a grant-server migration), shown wherever it is.
    public var reason: String
    /// When it was declared (seconds), for a stored one: declared after its start, it corrects the past.
    public var createdSeconds: Int64?
    /// Where it was declared.
    public var source: Source

    /// Creates a window.
    public init(
        id: String, app: String = "", startSeconds: Int64, endSeconds: Int64, recurrence: RecurrenceRule? = nil, actions: [String] = [],
        reason: String, createdSeconds: Int64? = nil, source: Source = .stored
    ) {
        self.id = id
        self.app = app
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.recurrence = recurrence
        self.actions = actions
        self.reason = reason
        self.createdSeconds = createdSeconds
        self.source = source
    }

    /// How long each occurrence lasts.
    public var durationSeconds: Int64 { endSeconds - startSeconds }

    /// Whether it leaves out `action`'s minutes.
    public func covers(action: String) -> Bool { actions.isEmpty || actions.contains(action) }

    /// Whether it was declared after its first occurrence began: a budget correction.
    public var isCorrection: Bool { createdSeconds.map { $0 > startSeconds } ?? false }

    /// Its occurrences that overlap `[from, to)`, each as `[start, end)` (not clipped), in order.
    public func occurrences(from: Int64, to: Int64) -> [Range<Int64>] {
        guard let recurrence else { return startSeconds < to && endSeconds > from ? [startSeconds..<endSeconds] : [] }
        return recurrence.starts(first: startSeconds, notBefore: from - durationSeconds + 1, before: to).map { $0..<($0 + durationSeconds) }
    }

    /// Checks what a person declared: an end after the start, no longer than a year, each occurrence of a
    /// recurrence ending before the next one starts (``RecurrenceRule/smallestGapSeconds(first:)``), a
    /// reason of printable text, and times the format can write.
    /// - Throws: ``MaintenanceWindowError`` naming the field.
    public func validated() throws -> MaintenanceWindow {
        guard RFC3339.representableSeconds.contains(startSeconds) else { throw MaintenanceWindowError(field: "from", "is out of range") }
        guard endSeconds > startSeconds else {
            throw MaintenanceWindowError(field: "to", "must be after from (\(RFC3339.format(seconds: startSeconds)))")
        }
        guard durationSeconds <= 366 * .secondsPerDay else { throw MaintenanceWindowError(field: "to", "must be within a year of from") }
        guard RFC3339.representableSeconds.contains(endSeconds) else { throw MaintenanceWindowError(field: "to", "is out of range") }
        if let recurrence, let gap = recurrence.smallestGapSeconds(first: startSeconds), durationSeconds >= gap {
            throw MaintenanceWindowError(
                field: "duration",
                "each occurrence must end before the next one starts: \(recurrence) starts two occurrences "
                    + "\(TimeStep(seconds: gap)) apart, and each lasts \(TimeStep(seconds: durationSeconds))")
        }
        try Self.checkPrintable(reason)
        guard reason.count <= 500 else { throw MaintenanceWindowError(field: "reason", "must be at most 500 characters") }
        if let bad = actions.firstIndex(where: { !ActionType.isValidToken($0) }) {
            throw MaintenanceWindowError(field: "actions[\(bad)]", "must name an action such as purchase, got \"\(actions[bad])\"")
        }
        return self
    }
}

/// A maintenance window declared wrongly: the field at fault and what was expected.
public struct MaintenanceWindowError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field: `from`, `to`, `duration`, `rrule`, `actions[1]`, `reason`.
    public let field: String
    /// What was expected.
    public let reason: String

    /// Creates the error of `field`.
    public init(field: String, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason)" }
}

extension MaintenanceWindow {
    /// Refuses a reason with no printable text (only spaces, control or format characters such as U+200B)
    /// or with a control character other than tab and line breaks (NUL, escape sequences).
    static func checkPrintable(_ reason: String) throws {
        if let control = reason.unicodeScalars.first(where: { $0.properties.generalCategory == .control && !"\t\n\r".unicodeScalars.contains($0) }) {
            let code = String(control.value, radix: 16, uppercase: true)
            throw MaintenanceWindowError(
                field: "reason", "must be printable text, got the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code)"
            )
        }
        let invisible: Set<Unicode.GeneralCategory> = [.control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator]
        guard reason.unicodeScalars.contains(where: { !invisible.contains($0.properties.generalCategory) && !$0.properties.isWhitespace }) else {
            throw MaintenanceWindowError(field: "reason", "must say why (an announced outage, a migration)")
        }
    }

    /// A new stored window's id: `mw-` and 8 random hex digits.
    public static func newID() -> String {
        let digits = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return "mw-" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
