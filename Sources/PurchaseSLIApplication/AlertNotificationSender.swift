public import PurchaseSLIRendering

/// Delivers alert reports to where people see them: ``WebhookSender`` over HTTP, or a test's recorder.
public protocol AlertNotificationSender: Sendable {
    /// Whether alerts that keep firing are sent again at every evaluation rather than once (see
    /// ``AlertNotificationState``).
    var resendsFiring: Bool { get }

    /// Sends `reports` evaluated at `time` (seconds since the epoch); returns once the receiver took them.
    /// - Throws: ``NotificationError`` (or the implementation's own error) when they were not delivered.
    func send(_ reports: [AlertReport], evaluatedAt time: Int64) async throws
}
