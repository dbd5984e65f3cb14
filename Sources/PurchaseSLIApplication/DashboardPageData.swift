import Foundation
import PurchaseSLIAnalysis
import PurchaseSLICore

/// Everything one page shows beside its alerts, read once: each panel's data in the definition's order.
/// Panels are rendered from it and the page's ``DashboardFrame``.
public struct DashboardPageData: Sendable {
    /// The page's definition.
    public var definition: DashboardDefinition
    /// Each panel of the definition with its data, in the definition's order.
    public var panels: [PanelData]
    /// The colour of each app version on the page's charts: the six with the most events over the range,
    /// oldest first, take the six colours in order, so that a version has the same colour on the adoption
    /// chart, the rollout's and every chart by app version. Empty on a page without such a chart.
    public var versionColours: [String: Int]
    /// What the caps counted as `__other__` on the days of the range: tables by those dimensions show it
    /// as `__other__`.
    public var overflow: CapOverflow
}

/// One panel's data, as ``DashboardContext/load(_:firing:)`` reads it.
public enum PanelData: Sendable {
    /// Per action with an objective: its counts over each window, trend and budget.
    case objectives(ObjectivesPanelData)
    /// The last 6 hours of each action and metric an alert firing is about.
    case alerts([ChartPanelData])
    /// A time series of a metric over the range.
    case chart(ChartPanelData)
    /// The 409, cancel and unfinished rates now against the previous days.
    case signals(SignalsPanelData)
    /// The values of a dimension over the range, worst first.
    case table(TablePanelData)
    /// The most frequent failure descriptions of two windows.
    case topErrors(TopErrorsPanelData)
    /// Each app version's events per step.
    case adoption(AdoptionPanelData)
    /// The rollout verdict for a candidate version.
    case rollout(RolloutPanelData)
    /// The stores' charges and the app's grants over the last day.
    case reconciliation(ReconciliationPanelData)
    /// Per objective, its budget burn-down and attainment.
    case budget([BudgetCardData])
}

extension DashboardContext {
    /// The data of every panel of `definition` for the app shown, read from the store; `firing` is what
    /// the alerts panel charts (the alerts firing at the page's time).
    public func load(_ definition: DashboardDefinition, firing: [AlertReport]) async throws -> DashboardPageData {
        var panels: [PanelData] = []
        for panel in definition.panels {
            panels.append(try await load(panel, firing: firing))
        }
        let colours = definition.panels.contains(where: \.showsVersions) ? try await versionColours() : [:]
        return DashboardPageData(definition: definition, panels: panels, versionColours: colours, overflow: try await capOverflow())
    }

    /// The data of one panel.
    private func load(_ panel: DashboardDefinition.Panel, firing: [AlertReport]) async throws -> PanelData {
        switch panel {
        case .objectives:
            return .objectives(try await objectivesData())
        case .alerts:
            return .alerts(try await alertChartsData(firing: firing))
        case let .chart(title, metric, actionType, by, step, overlay):
            return .chart(
                try await chartData(
                    title: title, metric: metric, actionType: actionType, by: by, stepSeconds: step, overlayPreviousWeek: overlay))
        case .signals:
            return .signals(try await signalsData())
        case let .table(title, by, actionType, limit):
            return .table(try await tableData(title: title, by: by, actionType: actionType, limit: limit))
        case let .topErrors(actionType, window, limit):
            return .topErrors(try await topErrorsData(actionType: actionType, windowSeconds: window, limit: limit))
        case .adoption(let step):
            return .adoption(try await adoptionData(stepSeconds: step))
        case let .rollout(candidate, baseline):
            return .rollout(try await rolloutData(candidate: candidate, baseline: baseline))
        case .reconciliation:
            return .reconciliation(try await reconciliationData())
        case .budget:
            return .budget(try await budgetData())
        }
    }

    /// ``DashboardPageData/versionColours``.
    private func versionColours() async throws -> [String: Int] {
        let totals = try await store.counts(CountQuery(fromSeconds: fromSeconds, toSeconds: atSeconds, groupBy: [.appVersion]))
            .reduce(into: [String: Int64]()) { $0[$1.key[0] ?? "(none)", default: 0] += $1.counts.total }
        let busiest = totals.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(6).map(\.key)
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        return Dictionary(uniqueKeysWithValues: busiest.enumerated().map { ($1, $0) })
    }
}

extension DashboardDefinition.Panel {
    /// Whether the panel colours app versions (``DashboardPageData/versionColours``).
    var showsVersions: Bool {
        switch self {
        case .chart(_, _, _, .appVersion?, _, _), .adoption, .rollout: true
        default: false
        }
    }
}
