import PurchaseSLIAnalysis
import Testing

/// The policy in OpenSLO v1 and back: an export read back is the same objectives, rules and fast test;
/// documents written by hand (a window in weeks, an inline SLI counting bad events, thresholds without our
/// annotations) read as a person means them; what the policy cannot say is refused naming the field.
@Suite struct OpenSLOTests {
    static let policies: [(String, String)] = [
        ("the shipped default", ""),
        (
            "a calendar month, an owner, a runbook, revenue, other rules, no fast test",
            """
            objectives:
              - {actionType: purchase, target: 99.5, window: month, owner: "payments-oncall", runbook: "https://wiki.example.com/runbooks/purchases", weight: revenue}
              - {actionType: restore, target: 98, window: 7d}
              - {actionType: subscribe_upgrade, target: 99.9, window: 30d}
            burnRateRules:
              - {severity: page, longWindow: 1h, shortWindow: 5m, budgetShare: 2.5}
              - {severity: ticket, longWindow: 2d, shortWindow: 4h, budgetShare: 12}
            fastBurn: off
            """
        ),
        ("no burn-rate rules", "burnRateRules: []\nfastBurn: {window: 5m}"),
        (
            "apps' own objectives, two of whose names write alike",
            """
            objectives:
              - {actionType: purchase, target: 99.5, window: 28d}
            apps:
              com.example.a:
                objectives:
                  - {actionType: purchase, target: 98, window: 28d, owner: "coins-team"}
                  - {actionType: restore, target: 97, window: month}
              com-example.a:
                objectives:
                  - {actionType: purchase, target: 99, window: 7d}
              com.example.caps-only: {seriesCap: 500}
              "_\(String(repeating: "x", count: 250)).app":
                objectives:
                  - {actionType: purchase, target: 97}
              "日本語":
                objectives:
                  - {actionType: restore, target: 97}
            """
        ),
    ]

    @Test(arguments: policies)
    func anExportReadBackIsTheSamePolicy(_ name: String, _ yaml: String) throws {
        let policy = try SLOPolicy(yaml: yaml)
        let documents = OpenSLO.documents(of: policy)
        let read = try OpenSLOImport.policy(from: [("export.yaml", documents)])
        #expect(read.objectives == policy.objectives)
        #expect(read.appObjectives == policy.appObjectives)
        #expect(read.rules == policy.rules)
        #expect(read.fastBurn == policy.fastBurn)
        // And through the policy file's text.
        let text = try SLOPolicy(yaml: read.objectivesAndRulesYAML)
        #expect(
            text.objectives == policy.objectives && text.appObjectives == policy.appObjectives && text.rules == policy.rules
                && text.fastBurn == policy.fastBurn, "\(read.objectivesAndRulesYAML)")
        // Every document of a kind has a name of its own, one OpenSLO allows (the schema's pattern, at most 255).
        let names = documents.components(separatedBy: "---\n").map { document in
            document.split(separator: "\n").prefix(4).filter { $0.hasPrefix("kind: ") || $0.hasPrefix("  name: ") }.joined(separator: " ")
        }
        #expect(Set(names).count == names.count, "\(names)")
        for name in documents.split(separator: "\n").filter({ $0.hasPrefix("  name: ") }).map({ $0.dropFirst(8) }) {
            #expect(name.count <= 255 && name.wholeMatch(of: #/[a-z0-9][a-z0-9.|\/\\-]*[a-z0-9]*/#) != nil, "\(name)")
        }
    }

    /// An app's own objective is written with the app in its metric sources and in its names.
    @Test func anAppsOwnObjectiveNamesItsApp() throws {
        let policy = try SLOPolicy(
            yaml:
                "objectives: [{actionType: purchase, target: 99}]\napps:\n  com.example.coins:\n    objectives: [{actionType: purchase, target: 98}]")
        let documents = OpenSLO.documents(of: policy)
        #expect(documents.contains("  name: com-example-coins-purchase-success-rate\n  displayName: \"purchase success rate of com.example.coins\""))
        #expect(documents.components(separatedBy: "        app: \"com.example.coins\"\n").count == 3, "good and total name the app")
        #expect(documents.contains("  name: com-example-coins-purchase-page-1h-5m\n"))
    }

    /// A file as another tool writes it: no purchase-sli annotations, a 4-week window, an inline SLI of bad
    /// events, an inline condition, the threshold the only measure of the budget spent.
    static let handWritten = """
        apiVersion: openslo/v1
        kind: Service
        metadata: {name: checkout}
        spec: {description: Checkout}
        ---
        apiVersion: openslo/v1
        kind: SLO
        metadata: {name: purchases-99}
        spec:
          service: checkout
          indicator:
            metadata: {name: purchase-errors}
            spec:
              ratioMetric:
                counter: true
                bad: {metricSource: {type: purchase-sli, spec: {actionType: purchase, resultType: [failure]}}}
                total: {metricSource: {type: purchase-sli, spec: {actionType: purchase}}}
          timeWindow: [{duration: 4w, isRolling: true}]
          budgetingMethod: Occurrences
          objectives: [{target: 0.99}]
          alertPolicies: [fast-burn, slow-burn]
        ---
        apiVersion: openslo/v1
        kind: AlertPolicy
        metadata: {name: fast-burn}
        spec:
          alertWhenNoData: false
          alertWhenResolved: true
          alertWhenBreaching: true
          conditions:
            - kind: AlertCondition
              metadata: {name: fast}
              spec: {severity: page, condition: {kind: burnrate, op: gte, threshold: 13.44, lookbackWindow: 1h, alertAfter: 5m}}
          notificationTargets: [{targetRef: pagerduty}]
        ---
        apiVersion: openslo/v1
        kind: AlertPolicy
        metadata: {name: slow-burn}
        spec:
          alertWhenNoData: false
          alertWhenResolved: true
          alertWhenBreaching: true
          conditions: [{conditionRef: slow}]
          notificationTargets: [{targetRef: jira}]
        ---
        apiVersion: openslo/v1
        kind: AlertCondition
        metadata: {name: slow}
        spec: {severity: ticket, condition: {kind: burnrate, op: gt, threshold: 0.9333333, lookbackWindow: 3d, alertAfter: 6h}}
        """

    @Test func aFileWrittenByHandReadsAsMeant() throws {
        let policy = try OpenSLOImport.policy(from: [("checkout.yaml", Self.handWritten)])
        #expect(policy.objectives == [SLOPolicy.Objective(actionType: "purchase", target: 0.99, window: .rolling(seconds: 28 * 86_400))])
        #expect(
            policy.rules == [
                SLOPolicy.BurnRateRule(severity: .page, longWindowSeconds: 3600, shortWindowSeconds: 300, budgetShare: 0.02),
                SLOPolicy.BurnRateRule(severity: .ticket, longWindowSeconds: 3 * 86_400, shortWindowSeconds: 6 * 3600, budgetShare: 0.1),
            ])
        #expect(policy.fastBurn == SLOPolicy.default.fastBurn && policy.slices == SLOPolicy.default.slices)
    }

    @Test(arguments: [
        ("budgetingMethod: Occurrences", "budgetingMethod: Timeslices", "document 2 (SLO purchases-99): spec.budgetingMethod: expected Occurrences"),
        ("duration: 4w", "duration: 12h", "spec.timeWindow[0].duration: expected a rolling window of days or weeks"),
        ("objectives: [{target: 0.99}]", "objectives: [{target: 0.99}, {target: 0.999}]", "spec.objectives: expected exactly one objective"),
        ("objectives: [{target: 0.99}]", "objectives: [{target: 1.5}]", "spec.objectives[0].target: expected a percentage above 0 and below 100"),
        (
            "{type: purchase-sli, spec: {actionType: purchase}}", "{type: prometheus, spec: {query: 'sum(rate(x[5m]))'}}",
            "ratioMetric.total.metricSource.spec.actionType: required"
        ),
        ("resultType: [failure]", "resultType: [failure, cancel]", "ratioMetric.bad.metricSource.spec.resultType: expected failure"),
        (
            "op: gte, threshold: 13.44", "op: lte, threshold: 13.44",
            "document 3 (AlertPolicy fast-burn): spec.conditions[0].spec.condition.op: expected gte or gt"
        ),
        ("severity: page", "severity: critical", "spec.conditions[0].spec.severity: expected page or ticket, got critical"),
        (
            "alertPolicies: [fast-burn, slow-burn]", "alertPolicies: [fast-burn, medium-burn]",
            "spec.alertPolicies[1]: no AlertPolicy named medium-burn"
        ),
        ("conditionRef: slow", "conditionRef: slower", "spec.conditions[0].conditionRef: no AlertCondition named slower"),
        (
            "lookbackWindow: 3d, alertAfter: 6h", "lookbackWindow: 3d, alertAfter: 4d",
            "condition.alertAfter: must be above 0 and shorter than longWindow"
        ),
        ("apiVersion: openslo/v1\nkind: Service", "apiVersion: openslo/v2alpha\nkind: Service", "document 1: apiVersion: expected openslo/v1"),
        ("kind: Service", "kind: Dashboard", "document 1: kind: expected one of"),
        ("duration: 4w", "duration: 999999999999999d", "spec.timeWindow[0].duration: expected a rolling window of days or weeks"),
        ("lookbackWindow: 3d, alertAfter: 6h", "lookbackWindow: 99999999999999w, alertAfter: 6h", "condition.lookbackWindow: expected minutes"),
        (
            "{type: purchase-sli, spec: {actionType: purchase}}", "{type: purchase-sli, spec: {actionType: purchase, app: com.example.coins}}",
            "ratioMetric.total.metricSource.spec.app: com.example.coins differs from no app (bad)"
        ),
        (
            "{type: purchase-sli, spec: {actionType: purchase}}", "{type: purchase-sli, spec: {actionType: purchase, app: __other__}}",
            "ratioMetric.total.metricSource.spec.app: expected an app id as events name it, got \"__other__\""
        ),
        (
            "{type: purchase-sli, spec: {actionType: purchase}}", "{type: purchase-sli, spec: {actionType: purchase, app: [a, b]}}",
            "ratioMetric.total.metricSource.spec.app: expected an app id as events name it, got"
        ),
    ])
    func whatThePolicyCannotSayIsRefusedNamingTheField(_ original: String, _ replacement: String, _ message: String) {
        let text = Self.handWritten.replacingOccurrences(of: original, with: replacement)
        #expect(text != Self.handWritten)
        do {
            _ = try OpenSLOImport.policy(from: [("checkout.yaml", text)])
            Issue.record("accepted")
        } catch {
            #expect("\(error)".hasPrefix("checkout.yaml, ") && "\(error)".contains(message), "\(error)")
        }
    }

    @Test func aThresholdEditedSinceTheExportWinsOverItsAnnotation() throws {
        let policy = try SLOPolicy(yaml: "objectives: [{actionType: purchase, target: 99}]")
        let edited = OpenSLO.documents(of: policy).replacingOccurrences(of: "threshold: 13.44", with: "threshold: 26.88")
        let read = try OpenSLOImport.policy(from: [("edited.yaml", edited)])
        #expect(read.rules.first { $0.longWindowSeconds == 3600 }?.budgetShare == 0.04)
        #expect(read.rules.first { $0.longWindowSeconds == 3 * 86_400 }?.budgetShare == 0.1, "the unedited keep their exact share")
    }

    /// One objective per action and app: a second SLO of an app's action is refused, one of the same action
    /// for every app is not.
    @Test func aSecondSLOOfOneAppsActionIsRefused() throws {
        let policy = try SLOPolicy(
            yaml:
                "objectives: [{actionType: purchase, target: 99}]\napps:\n  com.example.coins:\n    objectives: [{actionType: purchase, target: 98}]")
        let documents = OpenSLO.documents(of: policy)
        let appSLO = try #require(
            documents.components(separatedBy: "---\n").first {
                $0.hasPrefix("apiVersion: openslo/v1\nkind: SLO\nmetadata:\n  name: com-example-coins-")
            })
        let twice =
            documents + "---\n"
            + appSLO.replacingOccurrences(of: "name: com-example-coins-purchase-success-rate\n  displayName", with: "name: again\n  displayName")
        do {
            _ = try OpenSLOImport.policy(from: [("x.yaml", twice)])
            Issue.record("accepted")
        } catch {
            #expect(
                "\(error)".contains(
                    "(SLO again): spec: a second SLO of action purchase of app com.example.coins (com-example-coins-purchase-success-rate is one)"),
                "\(error)")
        }
    }

    @Test func sloWithDifferentRulesAreRefused() throws {
        let policy = try SLOPolicy(yaml: "objectives: [{actionType: purchase, target: 99}, {actionType: restore, target: 99}]")
        let documents = OpenSLO.documents(of: policy).replacingOccurrences(of: "    - restore-page-1h-5m\n", with: "")
        #expect(throws: OpenSLOImport.Failure.self) { try OpenSLOImport.policy(from: [("x.yaml", documents)]) }
        do {
            _ = try OpenSLOImport.policy(from: [("x.yaml", documents)])
        } catch {
            #expect(
                "\(error)".contains(
                    "(SLO restore-success-rate): spec.alertPolicies: its burn-rate conditions differ from those of SLO purchase-success-rate"))
        }
    }
}
