/// Delivers alert reports to where people see them: ``WebhookSender`` over HTTP, or a test's recorder.
public protocol AlertNotificationSender: Sendable {
    /// Whether alerts that keep firing are sent again at every evaluation rather than once (see
    /// ``AlertNotificationState``).
    var resendsFiring: Bool { get }

    /// Whether a post goes at every evaluation even when no alert changed (a heartbeat rides on it), so that
    /// the receiver is tried, and its failure seen, on a quiet day too.
    var sendsEveryRound: Bool { get }

    /// Sends `reports` evaluated at `time` (seconds since the epoch); returns once the receiver took them.
    /// - Throws: ``NotificationError`` (or the implementation's own error) when they were not delivered.
    func send(_ reports: [AlertReport], evaluatedAt time: Int64) async throws

    /// Sends `reports` as ``send(_:evaluatedAt:)`` does, opened by `rerouting`'s word on why this receiver
    /// gets them (a fallback's); a receiver without free text (Alertmanager) gets the reports alone.
    func send(_ reports: [AlertReport], evaluatedAt time: Int64, rerouting: AlertRerouting?) async throws
}

extension AlertNotificationSender {
    /// Only when an alert changed.
    public var sendsEveryRound: Bool { false }

    /// The reports alone, without the word on rerouting.
    public func send(_ reports: [AlertReport], evaluatedAt time: Int64, rerouting: AlertRerouting?) async throws {
        try await send(reports, evaluatedAt: time)
    }
}
