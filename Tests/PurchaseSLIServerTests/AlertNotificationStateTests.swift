import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIServer
import Testing

/// A firing report of `action`'s success-rate burn at `severity`, firing since minute `since`, having
/// been at `earlier` severities before.
private func firing(_ action: String, _ severity: Severity = .page, since: Int64 = 0, earlier: [Severity] = []) -> AlertReport {
    AlertReport(
        finding: AlertFinding(
            kind: .successRateBurn, severity: severity, labels: SeriesLabels(actionType: action), time: since * 60,
            evidence: BurnEvidence(
                objective: nil, rule: SLOPolicy.default.rules[0], threshold: 13.44, longWindow: OutcomeCounts(failure: 10),
                shortWindow: OutcomeCounts(failure: 10), shortWindowSeconds: 300)),
        startsAt: since * 60,
        severityChanges: (earlier + [severity]).enumerated().map { SeverityChange(atSeconds: (since + Int64($0.offset)) * 60, severity: $0.element) })
}

/// What was returned, one string a report: "purchase page" or "purchase page resolved@5" (minutes).
private func sent(_ reports: [AlertReport]) -> [String] {
    reports.map { report in
        "\(report.finding.labels.actionType) \(report.severity)" + (report.endsAt.map { " resolved@\($0 / 60)" } ?? "")
    }
}

/// Evaluates `steps` in turn (the alerts firing at minutes 1, 2, …), delivering every send except those
/// listed in `failing`; returns what each evaluation gave to send.
private func run(_ steps: [[AlertReport]], resendingFiring: Bool = false, failing: Set<Int> = []) -> [[String]] {
    var state = AlertNotificationState(resendingFiring: resendingFiring)
    return steps.enumerated().map { index, firingNow in
        let reports = state.reportsToSend(firing: firingNow, at: Int64(index + 1) * 60)
        if !failing.contains(index + 1) { state.delivered() }
        return sent(reports)
    }
}

@Suite struct AlertNotificationStateTests {
    /// A ticket that becomes a page is one incident, but receivers route by severity: the page goes out as
    /// a new alert and the ticket as resolved; when the page calms to a ticket, the ticket goes out and the
    /// page is resolved (the label follows the severity the text says).
    @Test func aTicketThatBecomesAPageIsSentAsThePageWithTheTicketResolved() {
        #expect(
            run([
                [firing("purchase", .ticket)], [firing("purchase", .page, earlier: [.ticket])],
                [firing("purchase", .ticket, earlier: [.ticket, .page])], [],
            ])
                == [
                    ["purchase ticket"], ["purchase page", "purchase ticket resolved@2"], ["purchase ticket", "purchase page resolved@3"],
                    ["purchase ticket resolved@4"],
                ])
    }

    @Test func anAlertThatStartsFiringIsSentOnceAndNotAgainWhileItFiresUnchanged() {
        #expect(
            run([[], [firing("purchase")], [firing("purchase")], [firing("purchase")]])
                == [[], ["purchase page"], [], []])
    }

    @Test func anAlertThatStopsFiringIsSentOnceAsResolvedAtTheFirstEvaluationWithoutIt() {
        #expect(run([[firing("purchase")], [firing("purchase")], [], []]) == [["purchase page"], [], ["purchase page resolved@3"], []])
    }

    @Test func aFailedSendIsRetriedAtTheNextEvaluationWithWhatChangedSince() {
        #expect(
            run(
                [[firing("purchase")], [firing("purchase"), firing("retry")], [firing("retry")], [firing("retry")]],
                failing: [1, 2])
                == [["purchase page"], ["purchase page", "retry page"], ["retry page", "purchase page resolved@3"], []])
    }

    @Test func anAlertThatStartsAndStopsBeforeAnySendSucceedsIsSentOnceResolved() {
        #expect(run([[firing("purchase")], [], []], failing: [1]) == [["purchase page"], ["purchase page resolved@2"], []])
    }

    @Test func aResolutionNotDeliveredBeforeTheAlertFiresAgainGivesWayToTheFiringAlert() {
        #expect(
            run([[firing("purchase")], [], [firing("purchase", since: 3)]], failing: [2])
                == [["purchase page"], ["purchase page resolved@2"], ["purchase page"]])
    }

    @Test func forAlertmanagerEveryFiringAlertIsSentAtEveryEvaluationAndEachResolutionOnce() {
        #expect(
            run(
                [[firing("purchase")], [firing("purchase"), firing("retry", .ticket)], [firing("retry", .ticket)], [], []],
                resendingFiring: true)
                == [
                    ["purchase page"], ["purchase page", "retry ticket"], ["retry ticket", "purchase page resolved@3"],
                    ["retry ticket resolved@4"], [],
                ])
    }

    @Test func firingAlertsComeFirstMostUrgentFirstThenResolvedOnes() {
        #expect(
            run([[firing("restore", .ticket)], [firing("retry", .ticket), firing("purchase")]])
                == [["restore ticket"], ["purchase page", "retry ticket", "restore ticket resolved@2"]])
    }

    @Test func anEscalationFromTicketToPageIsANewAlertAndTheTicketResolves() {
        #expect(
            run([[firing("purchase", .ticket)], [firing("purchase", .page)]])
                == [["purchase ticket"], ["purchase page", "purchase ticket resolved@2"]])
    }

    /// For a chat (sent each change once), any change of an incident sends all of its alerts firing: its
    /// message tells it whole; Slack gets one message per incident.
    @Test func aChangeOfAnIncidentSendsItWholeOneMessagePerIncident() throws {
        let outage = Incident(id: "20261114-1202-aaaaaa", episodes: [], causes: [])
        let other = Incident(id: "20261114-1300-bbbbbb", episodes: [], causes: [])
        func alert(_ action: String, _ severity: Severity, in incident: Incident) -> AlertReport {
            var report = firing(action, severity)
            report.incident = incident
            return report
        }
        var state = AlertNotificationState(resendingFiring: false)
        #expect(sent(state.reportsToSend(firing: [alert("purchase", .page, in: outage)], at: 60)) == ["purchase page"])
        state.delivered()
        let second = state.reportsToSend(
            firing: [alert("purchase", .page, in: outage), alert("restore", .page, in: outage), alert("retry", .ticket, in: other)], at: 120)
        #expect(sent(second) == ["purchase page", "restore page", "retry ticket"])
        let bodies = AlertNotificationFormat.slack.bodies(for: second, at: 120)
        #expect(bodies.count == 2 && bodies[0].contains("incident 20261114-1202-aaaaaa: 2 firing (2 pages)"), "\(bodies)")
        #expect(AlertNotificationFormat.alertmanager.bodies(for: second, at: 120).count == 1)
    }
}
