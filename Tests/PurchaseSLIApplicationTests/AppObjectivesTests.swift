import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// An app the policy gives objectives of its own is judged on them wherever it is judged alone: its
/// alerts, its pages' objectives and its weekly review; every app together keeps the policy's.
@Suite struct AppObjectivesTests {
    private static let end: Int64 = 1_794_657_600  // 2026-11-14T12:00:00Z
    private static let lenient = "com.example.coins"
    private let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// 99.5 % for purchases, but 97 % for the lenient app.
    private static let policy: SLOPolicy = {
        var policy = SLOPolicy.default
        policy.objectives = [SLOPolicy.Objective(actionType: "purchase", target: 0.995, window: .rolling(seconds: 28 * 86_400))]
        policy.appObjectives = [lenient: [SLOPolicy.Objective(actionType: "purchase", target: 0.97, window: .rolling(seconds: 28 * 86_400))]]
        return policy
    }()

    /// Eight hours of purchases of two apps, one every 10 s each, one in twenty failing: ten times the
    /// budget of 99.5 %, under two times that of 97 %.
    private func store() async throws -> SQLiteBucketStore {
        let store = try SQLiteBucketStore(path: directory.file("objectives.sqlite"))
        let events = [Self.lenient, "com.example.strict"].flatMap { app in
            (0..<2880).map { index -> PurchaseEvent in
                let fails = index % 20 == 7
                return PurchaseEvent(
                    eventID: "\(app)-\(index)", timestampMillis: (Self.end - 8 * 3600 + Int64(index) * 10) * 1000, productID: "coins_100",
                    actionType: .purchase, resultType: fails ? .failure : .success, statusCode: fails ? 503 : 200, app: app)
            }
        }
        _ = try await store.record(events, receivedAtMillis: Self.end * 1000)
        return store
    }

    @Test(arguments: [(lenient, false), ("com.example.strict", true), (nil, true)] as [(String?, Bool)])
    func anAppsAlertsJudgeItOnItsOwnObjective(app: String?, burns: Bool) async throws {
        let context = try await AlertContext(store: store(), policy: Self.policy, app: app)
        #expect(context.policy.objectives.map(\.target) == [app == Self.lenient ? 0.97 : 0.995])
        let firing = try await context.firingReports(at: Self.end)
        #expect(firing.contains { $0.finding.kind == .successRateBurn } == burns, "\(firing.map(\.finding.identity))")
    }

    @Test func anAppsPagesShowItsOwnObjective() async throws {
        var context = try await DashboardContext(store: store(), policy: Self.policy, atSeconds: Self.end, rangeSeconds: 86_400)
        #expect(context.policy.objectives.map(\.target) == [0.995])
        context.app = Self.lenient
        #expect(context.policy.objectives.map(\.target) == [0.97])
        #expect(context.alerting().policy.objectives.map(\.target) == [0.97])
        let review = try await WeeklyReport(
            week: ISOWeek(containing: Self.end, in: .utc), store: context.everyApp, policy: Self.policy, app: Self.lenient, episodes: [])
        #expect(review.actions.first { $0.actionType == "purchase" }?.objective?.target == 0.97)
    }
}
