import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import PurchaseSLITestSupport
import Testing

extension AlertFinding.Kind {
    /// The toy kind: restores crowding out the other actions.
    static let restoreShare = AlertFinding.Kind(rawValue: "RestoreShare")
}

/// An eighth alert kind defined only here: a ticket while restores are at least 5 % of the last hour's
/// valid events. One file and one registry entry (``rules``) are all it takes to show everywhere.
struct RestoreShareRule: AlertRule {
    var kind: AlertFinding.Kind { .restoreShare }
    var shortName: String { "restores" }
    var holdSeconds: Int64 { 0 }
    var reachSeconds: Int64 { 3600 }

    func evaluate(at time: Int64, in context: AlertRuleContext) -> AlertRuleOutcome {
        guard let restores = context.inputs.actions["restore"]?.counts(last: 3600, before: time) else { return AlertRuleOutcome() }
        let all = context.inputs.actions.values.reduce(OutcomeCounts()) { $0 + $1.counts(last: 3600, before: time) }
        guard all.valid > 0, Double(restores.valid) >= 0.05 * Double(all.valid) else { return AlertRuleOutcome() }
        return AlertRuleOutcome(findings: [
            AlertFinding(
                kind: kind, severity: .ticket, labels: SeriesLabels(actionType: "restore"), time: time,
                evidence: RestoreShareEvidence(restores: restores.valid, all: all.valid))
        ])
    }

    func causes(of finding: AlertFinding) -> Set<IncidentCause> { [IncidentCause("restores")] }
}

/// What the toy rule found.
struct RestoreShareEvidence: AlertEvidence {
    var restores: Int64
    var all: Int64

    var windowSeconds: Int64 { 3600 }
    func summary(of alert: AlertFinding) -> AlertText {
        "restores at \(percent: Double(restores) / Double(all)) of the valid events of the last hour (toy rule)"
    }
    func details(of alert: AlertFinding) -> [AlertText] { ["\(count: restores) restores of \(count: all) valid events"] }
    func lookNext(of alert: AlertFinding, from: Int64, to: Int64) -> LookNextCommand {
        .query(of: alert.labels, from: from - 3600, to: to, ["--by", "productID"])
    }
}

@Suite("A toy eighth alert kind: one rule file and one registry entry show in alerts, the on-call page and the webhook text")
struct ToyAlertRuleTests {
    static let summary = "of the valid events of the last hour (toy rule)"

    @Test(arguments: [false, true])
    func theToyKindShowsEverywhere(registered: Bool) async throws {
        let directory = try TemporaryDirectory()
        let store = try await OutageFixture.makeStore(in: directory)
        let policy = try shippedPolicy()
        let rules = AlertRules.standard(for: policy) + (registered ? [RestoreShareRule()] : [])
        let at = OutageFixture.end
        // alerts --at: the reports and their text.
        let reports = try await AlertContext(store: store, policy: policy, rules: rules).firingReports(at: at)
        let text = AlertOutput.text(reports, now: at)
        #expect((text.contains("TICKET  restores at ") && text.contains(Self.summary)) == registered, "\(text)")
        #expect(text.contains("look next: purchase-sli query --from") == true)
        // The webhooks: Slack's attachment and Alertmanager's alertname.
        #expect(AlertOutput.slackWebhookJSON(reports, now: at).contains(Self.summary) == registered)
        #expect(AlertOutput.alertmanagerJSON(reports, now: at).contains("\"alertname\":\"RestoreShare\"") == registered)
        // The on-call page, rendered with the same rules.
        let context = try await OutageFixture.context(store, rangeSeconds: 86_400)
        let files = try await DashboardRenderer(definitions: try shippedDefinitions(), context: context, rules: rules)
            .render(generatedAtSeconds: at)
        let oncall = try #require(files.first { $0.name == "oncall.html" }?.html)
        #expect(oncall.contains(Self.summary) == registered)
        #expect(
            oncall.contains("id=\"\(AlertFinding.Identity(kind: .restoreShare, labels: SeriesLabels(actionType: "restore")).anchor)\"") == registered)
    }
}
