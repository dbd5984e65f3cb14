import PurchaseSLIAnalysis

/// What to send a receiver after each alert evaluation, given what it was sent before. Pure: the caller
/// gives the evaluation time and says when a send succeeded.
///
/// An alert that starts firing is sent once; one that stops is sent once more as resolved, with `endsAt`
/// the first evaluation time at which it no longer fired. With `resendingFiring` (Alertmanager, which
/// resolves an alert that is not re-sent within its `resolve_timeout`) every firing alert also goes with
/// every send, as Prometheus does. A change whose send failed stays pending and goes with the next send in
/// its latest state: an alert that started and stopped before any send succeeded is sent once, resolved.
/// Alerts are the same when their ``AlertFinding/identity`` is; one labelled with a new severity (a
/// ticket that became a page, or a page that calmed to a ticket: receivers route by severity) is a new
/// alert, and the old one is resolved. A receiver sent each change once (a chat) gets with any change of
/// an incident all of its alerts firing, so that the incident's message tells it whole.
public struct AlertNotificationState: Sendable {
    /// Whether alerts that keep firing are sent at every evaluation, not only when they start.
    public let resendingFiring: Bool
    /// The alerts firing at the last evaluation.
    private var firing: [AlertFinding.Identity: AlertReport] = [:]
    /// Starts and ends not yet delivered, per alert as labelled.
    private var pending: [Labelled: AlertReport] = [:]

    /// An alert with the severity it is labelled with.
    private struct Labelled: Hashable {
        var identity: AlertFinding.Identity
        var severity: Severity

        init(_ report: AlertReport) {
            identity = report.finding.identity
            severity = report.severity
        }
    }

    /// Creates the state of a receiver that has been sent nothing.
    public init(resendingFiring: Bool) {
        self.resendingFiring = resendingFiring
    }

    /// Takes the alerts `firingNow` at `time` and returns the reports to send: firing ones, then resolved
    /// ones, most urgent first. Call ``delivered()`` once they were sent; until then they stay pending.
    /// O(alerts × log alerts).
    public mutating func reportsToSend(firing firingNow: [AlertReport], at time: Int64) -> [AlertReport] {
        let current = Dictionary(firingNow.map { ($0.finding.identity, $0) }, uniquingKeysWith: { first, _ in first })
        for (identity, report) in firing where current[identity].map(Labelled.init) != Labelled(report) {
            var resolved = report
            resolved.resolvedSeverity = report.severity
            resolved.endsAt = time
            pending[Labelled(report)] = resolved
        }
        for (identity, report) in current where firing[identity].map(Labelled.init) != Labelled(report) || pending[Labelled(report)] != nil {
            pending[Labelled(report)] = report
        }
        firing = current
        let changedIncidents = Set(pending.values.compactMap(\.incident?.id))
        let sending = pending.merging(
            current.values.filter { report in
                resendingFiring || report.incident.map { changedIncidents.contains($0.id) } == true
            }.map { (Labelled($0), $0) }
        ) { _, latest in latest }
        return sending.values.sorted { lhs, rhs in
            (lhs.endsAt == nil) != (rhs.endsAt == nil)
                ? lhs.endsAt == nil
                : lhs.severity != rhs.severity ? lhs.severity > rhs.severity : lhs.finding.identity < rhs.finding.identity
        }
    }

    /// Records that the reports last returned by ``reportsToSend(firing:at:)`` were delivered.
    public mutating func delivered() {
        pending.removeAll()
    }
}
