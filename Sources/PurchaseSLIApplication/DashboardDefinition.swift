public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// A dashboard as data (a YAML file under `dashboards/`): its title, its file name, and its panels
/// from top to bottom.
public struct DashboardDefinition: Sendable, Hashable {
    /// The page title.
    public var title: String
    /// The file it is written to, e.g. `oncall.html`.
    public var file: String
    /// One line under the title saying what the page is for.
    public var summary: String
    /// The app the page shows, when it shows one app of a store several apps write to (`app:`), or nil
    /// for the apps the pages are rendered for.
    public var app: String?
    /// The panels, in order.
    public var panels: [Panel]

    /// Creates a definition.
    public init(title: String, file: String, summary: String, app: String? = nil, panels: [Panel]) {
        self.title = title
        self.file = file
        self.summary = summary
        self.app = app
        self.panels = panels
    }

    /// The file of the first of `definitions` that shows the firing alerts (`oncall.html` when none
    /// does): the page alert notifications link to.
    public static func alertPage(in definitions: [DashboardDefinition]) -> String {
        definitions.first { $0.panels.contains(.alerts) }?.file ?? "oncall.html"
    }

    /// The title of the page showing `app` (nil: every app): "On-call · com.example.premium".
    public func title(showing app: String?) -> String {
        title + (app.map { " · \($0)" } ?? "")
    }

    /// The page alert text about `app` (nil: every app) links to: the first of `definitions` showing that
    /// app (`app:` naming it) with the alerts, else the first without an `app:` that shows them.
    public static func alertPage(in definitions: [DashboardDefinition], for app: String?) -> String {
        let own = definitions.filter { $0.app == app }
        return alertPage(in: own.contains { $0.panels.contains(.alerts) } ? own : definitions.filter { $0.app == nil })
    }

    /// The file of the first of `definitions` with a rollout panel (`rollout.html` when none does): the
    /// page rollout notifications link to.
    public static func rolloutPage(in definitions: [DashboardDefinition]) -> String {
        definitions.first { $0.panels.contains { if case .rollout = $0 { true } else { false } } }?.file ?? "rollout.html"
    }

    /// What a chart plots.
    public enum ChartMetric: Sendable, Hashable {
        /// A rate per step.
        case rate(RateMetric)
        /// Valid events (success + alreadyGranted + failure) per step.
        case events
    }

    /// One block of a page.
    public enum Panel: Sendable, Hashable {
        /// Per action with an objective: success rate over 1 h, 6 h, 24 h and 7 d against it, burn
        /// rates, budget left.
        case objectives
        /// The alerts firing at the page's time, with their text.
        case alerts
        /// A time series over the page's range, one line per value of `by` (or one for all), with the
        /// objective and the alert episodes shaded.
        case chart(
            title: String?, metric: ChartMetric, actionType: String?, by: EventDimension?, stepSeconds: Int64?, overlayPreviousWeek: Bool = false)
        /// Per action: the 409, cancel and unfinished rates of the last hour against the same hour of
        /// the previous days.
        case signals
        /// A table of the values of a dimension, worst first (failures above the action's average).
        case table(title: String?, by: EventDimension, actionType: String?, limit: Int)
        /// The most frequent failure descriptions over a window, with the previous window's counts.
        case topErrors(actionType: String?, windowSeconds: Int64, limit: Int)
        /// Each app version's share of events per step: the phased-release curve.
        case adoption(stepSeconds: Int64?)
        /// The `rollout` verdict for a candidate version (default: the newest) with every comparison.
        case rollout(candidate: String?, baseline: String?)
        /// The stores' charges against the app's grants over the last day, and the charges ungranted now.
        case reconciliation
        /// Per objective, the error budget left day by day with its projection, and the attainment per
        /// ISO week and calendar month.
        case budget
    }
}
