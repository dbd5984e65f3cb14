import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLITestSupport
import Testing

@Suite struct DashboardDefinitionTests {
    /// A bad definition, the key its error must name, and a word its reason must contain.
    struct BadDefinition: Sendable, CustomTestStringConvertible {
        let why: String
        let yaml: String
        let path: String
        let reason: String
        var testDescription: String { why }
    }

    static let badDefinitions = [
        BadDefinition(
            why: "an unknown panel kind", yaml: "title: T\nfile: t.html\npanels:\n  - objectives\n  - heatmap\n",
            path: "panels[1].kind", reason: "heatmap"),
        BadDefinition(
            why: "a chart without a metric", yaml: "title: T\nfile: t.html\npanels:\n  - kind: chart\n    by: productID\n",
            path: "panels[0].metric", reason: "required"),
        BadDefinition(
            why: "a chart of an unknown metric", yaml: "title: T\nfile: t.html\npanels:\n  - kind: chart\n    metric: revenue\n",
            path: "panels[0].metric", reason: "revenue"),
        BadDefinition(
            why: "a table by something that is not a dimension",
            yaml: "title: T\nfile: t.html\npanels:\n  - signals\n  - kind: table\n    by: price\n",
            path: "panels[1].by", reason: "price"),
        BadDefinition(
            why: "a table by a dimension that is not a series dimension",
            yaml: "title: T\nfile: t.html\npanels:\n  - kind: table\n    by: errorDescription\n",
            path: "panels[0].by", reason: "errorDescription"),
        BadDefinition(
            why: "a chart step of zero", yaml: "title: T\nfile: t.html\npanels:\n  - kind: chart\n    metric: events\n    step: 0\n",
            path: "panels[0].step", reason: "above zero"),
        BadDefinition(
            why: "a top-errors window of zero", yaml: "title: T\nfile: t.html\npanels:\n  - kind: topErrors\n    window: 0\n",
            path: "panels[0].window", reason: "above zero"),
        BadDefinition(
            why: "a table without by", yaml: "title: T\nfile: t.html\npanels:\n  - kind: table\n",
            path: "panels[0].by", reason: "required"),
        BadDefinition(
            why: "a file name that climbs out of the output directory",
            yaml: "title: T\nfile: ../etc/t.html\npanels: [objectives]\n", path: "file", reason: "../etc/t.html"),
        BadDefinition(
            why: "a file name with a capital", yaml: "title: T\nfile: OnCall.html\npanels: [objectives]\n",
            path: "file", reason: "OnCall.html"),
        BadDefinition(
            why: "a file that would replace the index", yaml: "title: T\nfile: index.html\npanels: [objectives]\n",
            path: "file", reason: "index.html"),
        BadDefinition(
            why: "a file that is not HTML", yaml: "title: T\nfile: oncall.htm\npanels: [objectives]\n",
            path: "file", reason: "oncall.htm"),
        BadDefinition(
            why: "an unknown top-level key", yaml: "title: T\nfile: t.html\ntheme: dark\npanels: [objectives]\n",
            path: "theme", reason: "unknown"),
        BadDefinition(
            why: "an unknown panel option", yaml: "title: T\nfile: t.html\npanels:\n  - kind: topErrors\n    limt: 5\n",
            path: "panels[0].limt", reason: "unknown"),
        BadDefinition(
            why: "an option of another kind", yaml: "title: T\nfile: t.html\npanels:\n  - kind: adoption\n    by: appVersion\n",
            path: "panels[0].by", reason: "unknown"),
        BadDefinition(
            why: "an action that is not a token", yaml: "title: T\nfile: t.html\npanels:\n  - kind: table\n    by: planID\n    actionType: \"<b>\"\n",
            path: "panels[0].actionType", reason: "<b>"),
        BadDefinition(
            why: "a step that is not a duration", yaml: "title: T\nfile: t.html\npanels:\n  - kind: adoption\n    step: often\n",
            path: "panels[0].step", reason: "often"),
        BadDefinition(
            why: "a limit that is not a count", yaml: "title: T\nfile: t.html\npanels:\n  - kind: table\n    by: planID\n    limit: -3\n",
            path: "panels[0].limit", reason: "-3"),
        BadDefinition(
            why: "an app with a control character", yaml: "title: T\nfile: t.html\napp: \"com.example\\u0007\"\npanels: [objectives]\n",
            path: "app", reason: "control characters"),
        BadDefinition(
            why: "an app that is a list", yaml: "title: T\nfile: t.html\napp: [a, b]\npanels: [objectives]\n", path: "app", reason: "bundle id"),
        BadDefinition(why: "no title", yaml: "file: t.html\npanels: [objectives]\n", path: "title", reason: "required"),
        BadDefinition(why: "no panels", yaml: "title: T\nfile: t.html\n", path: "panels", reason: "required"),
        BadDefinition(why: "an empty panel list", yaml: "title: T\nfile: t.html\npanels: []\n", path: "panels", reason: "at least one"),
        BadDefinition(why: "panels that are not a list", yaml: "title: T\nfile: t.html\npanels: objectives\n", path: "panels", reason: ""),
        BadDefinition(why: "text that is not YAML", yaml: "title: [T\n", path: "line 2, column 1", reason: "YAML"),
        BadDefinition(
            why: "an overlay of a chart by a dimension",
            yaml: "title: T\nfile: t.html\npanels:\n  - {kind: chart, metric: successRate, by: productID, overlay: previousWeek}\n",
            path: "panels[0].overlay", reason: "overlay a chart without by"),
        BadDefinition(
            why: "an overlay that is not one", yaml: "title: T\nfile: t.html\npanels:\n  - {kind: chart, metric: events, overlay: lastYear}\n",
            path: "panels[0].overlay", reason: "expected previousWeek or none, got lastYear"),
    ]

    @Test(arguments: badDefinitions)
    func aBadDefinitionNamesTheKeyAtFault(_ bad: BadDefinition) {
        do {
            _ = try DashboardDefinition(yaml: bad.yaml)
            Issue.record("accepted: \(bad.why)")
        } catch let error as PolicyError {
            #expect(error.path == bad.path, "\(error)")
            #expect(bad.reason.isEmpty || error.reason.contains(bad.reason), "\(error)")
        } catch {
            Issue.record("not a PolicyError: \(error)")
        }
    }

    @Test func theShippedDashboardsParse() throws {
        let directory = packageRoot + "/dashboards"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".yaml") && $0 != "slos.yaml" }
        #expect(Set(files).isSuperset(of: ["oncall.yaml", "rollout.yaml"]))
        let definitions = try shippedDefinitions()
        #expect(definitions.count == files.count)
        let oncall = try #require(definitions.first { $0.file == "oncall.html" })
        #expect(oncall.title == "On-call")
        #expect(oncall.panels.first == .objectives && oncall.panels.contains(.alerts) && oncall.panels.contains(.signals))
        #expect(oncall.panels.contains(.table(title: nil, by: .productID, actionType: "purchase", limit: 12)))
        #expect(oncall.panels.contains(.topErrors(actionType: nil, windowSeconds: 86_400, limit: 10)))
        #expect(
            oncall.panels.contains(
                .chart(
                    title: "Purchase success rate, with the objective and alert episodes shaded", metric: .rate(.successRate), actionType: "purchase",
                    by: nil, stepSeconds: nil, overlayPreviousWeek: true)))
        let rollout = try #require(definitions.first { $0.file == "rollout.html" })
        #expect(rollout.panels.contains(.rollout(candidate: nil, baseline: nil)))
        #expect(
            rollout.panels.contains(
                .chart(
                    title: "409s per valid event per app version", metric: .rate(.conflictRate), actionType: nil, by: .appVersion, stepSeconds: nil)))
        #expect(Set(definitions.map(\.file)).count == definitions.count)
    }

    @Test func aPanelMayBeAKindAloneOrAMapping() throws {
        let definition = try DashboardDefinition(
            yaml: """
                title: Mine
                file: mine-2.html
                summary: what it is for
                panels:
                  - alerts
                  - kind: chart
                    metric: events
                    step: 1h
                  - kind: topErrors
                    actionType: restore
                    window: 6h
                    limit: 3
                """)
        #expect(definition.file == "mine-2.html" && definition.summary == "what it is for")
        #expect(
            definition.panels == [
                .alerts, .chart(title: nil, metric: .events, actionType: nil, by: nil, stepSeconds: 3600),
                .topErrors(actionType: "restore", windowSeconds: 6 * 3600, limit: 3),
            ])
    }
}
