import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// Time to grant: how long each charge the policy expects a grant for took to be granted, the series its
/// objective is judged on, its percentiles, and the burn alerts on it.
@Suite struct GrantTimesTests {
    /// 2026-11-20T12:00:00Z, in milliseconds.
    private static let noon: Int64 = 1_795_176_000_000
    private static let minute: Int64 = 60_000

    /// A charge of `product` at `millis`, received `receivedAfter` ms later, granted `grantedAfter` ms after the charge (nil: never).
    struct Charge {
        var id: String
        var millis: Int64
        var receivedAfter: Int64 = 1000
        var grantedAfter: Int64?
        var product = "coins_100"
        var type = "ONE_TIME_CHARGE"
        var store: Store = .apple
        var version: String? = "4.11.0"
    }

    /// The ledger of `charges` (reports naming each granted transaction) and the grants' app versions.
    private static func times(_ charges: [Charge], within: Int64 = 60) -> GrantTimes {
        let notifications = charges.map { charge in
            ReceivedNotification(
                StoreNotification(
                    store: charge.store, notificationID: "n\(charge.id)", environment: "Production", appID: "com.example.app", type: charge.type,
                    kind: .charge, signedMillis: charge.millis, transactionID: charge.id, productID: charge.product, purchaseMillis: charge.millis,
                    price: 0.99, currency: "USD"),
                receivedMillis: charge.millis + charge.receivedAfter)
        }
        let granted = charges.filter { $0.grantedAfter != nil }
        let reports = granted.map { charge in
            ClientReport(
                key: .transactionID(charge.id), productID: charge.product, actionType: "purchase",
                firstGrantMillis: charge.millis + charge.grantedAfter!,
                lastMillis: charge.millis + charge.grantedAfter!, lastResult: .success)
        }
        let grants = granted.map { charge in
            GrantRecord(
                eventID: "e\(charge.id)", transactionID: charge.id, millis: charge.millis + charge.grantedAfter!, productID: charge.product,
                appVersion: charge.version, platform: "iOS")
        }
        let ledger = ChargeLedger(notifications: notifications, reports: reports, rule: SLOPolicy.ReconciliationRule())
        return GrantTimes(ledger: ledger, grants: grants, withinSeconds: within)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var receivedAfter: Int64 = 1000
        var grantedAfter: Int64?
        var type = "ONE_TIME_CHARGE"
        /// Whether it counts, on time, and the minute (after the charge's) its outcome is known.
        var counted = true
        var onTime = false
        var decidedMinute: Int64 = 1
    }

    static let cases: [Case] = [
        Case(testDescription: "granted 0.9 s after the charge: on time, known once the minute has passed", grantedAfter: 900, onTime: true),
        Case(testDescription: "granted exactly 60 s after: on time", grantedAfter: 60_000, onTime: true),
        Case(testDescription: "granted 61 s after: late", grantedAfter: 61_000),
        Case(testDescription: "never granted: late", grantedAfter: nil),
        Case(testDescription: "a device clock 5 s behind puts the grant before the charge: 0 s, on time", grantedAfter: -5000, onTime: true),
        Case(
            testDescription: "its notification received 10 min after the charge: known then", receivedAfter: 10 * minute, grantedAfter: 1000,
            onTime: true, decidedMinute: 10),
        Case(testDescription: "a renewal the policy expects no grant for: not counted", grantedAfter: nil, type: "DID_RENEW", counted: false),
    ]

    @Test("each charge counts at the minute its outcome is known, on time or late", arguments: cases)
    func classification(_ item: Case) {
        let times = Self.times([
            Charge(id: "1", millis: Self.noon, receivedAfter: item.receivedAfter, grantedAfter: item.grantedAfter, type: item.type)
        ])
        let start = Self.noon / 1000 - 3600
        let series = times.series(startSeconds: start, endSeconds: start + 2 * 3600)
        guard item.counted else {
            #expect(times.charges.isEmpty && series.isEmpty)
            return
        }
        let overall = try? #require(series[.apple]?.overall)
        let minuteStart = Self.noon / 1000 + item.decidedMinute * 60
        #expect(overall?.counts(from: minuteStart, to: minuteStart + 60).success == (item.onTime ? 1 : 0))
        #expect(overall?.counts(from: minuteStart, to: minuteStart + 60).failure == (item.onTime ? 0 : 1))
        #expect(overall?.counts(from: start, to: minuteStart).valid == 0, "nothing before its outcome is known")
        #expect(times.isOnTime(times.charges[0]) == item.onTime)
    }

    @Test("slices by product and by the app version that granted; a charge never granted has no version")
    func slices() {
        let times = Self.times([
            Charge(id: "1", millis: Self.noon, grantedAfter: 900),
            Charge(id: "2", millis: Self.noon, grantedAfter: 300_000, product: "coins_500", version: "4.12.0"),
            Charge(id: "3", millis: Self.noon, grantedAfter: nil, product: "coins_500"),
            Charge(id: "4", millis: Self.noon, grantedAfter: 900, store: .google),
        ])
        let series = times.series(startSeconds: Self.noon / 1000, endSeconds: Self.noon / 1000 + 3600)
        let apple = series[.apple]
        #expect(apple?.overall.labels == SeriesLabels(actionType: "purchase", store: "apple"))
        #expect(apple?.overall.counts(from: Self.noon / 1000, to: Self.noon / 1000 + 3600).failure == 2)
        #expect(
            apple?.slices.map { "\($0.labels.slice!.dimension.rawValue)=\($0.labels.slice!.value!)" }
                == ["appVersion=4.11.0", "appVersion=4.12.0", "productID=coins_100", "productID=coins_500"])
        #expect(series[.google]?.overall.counts(from: Self.noon / 1000, to: Self.noon / 1000 + 3600).success == 1)

        let rows = times.breakdown(from: Self.noon, to: Self.noon + 1, at: Self.noon + 3_600_000)
        #expect(
            rows.map { "\($0.store.rawValue) \($0.slice?.value ?? "all") \($0.summary.late)" } == [
                "apple all 2", "apple coins_500 2", "apple 4.12.0 1", "apple 4.11.0 0", "apple coins_100 0", "google all 0", "google 4.11.0 0",
                "google coins_100 0",
            ])
    }

    @Test("percentiles by nearest rank, a charge not granted by the time read counted as such, one not yet known left out")
    func summary() {
        // 20 charges granted after 1 … 20 s, one never granted, one granted 2 minutes after the charge.
        var charges = (1...20).map { Charge(id: "\($0)", millis: Self.noon, grantedAfter: Int64($0) * 1000) }
        charges.append(Charge(id: "21", millis: Self.noon, grantedAfter: nil))
        charges.append(Charge(id: "22", millis: Self.noon, grantedAfter: 120_000))
        let times = Self.times(charges)
        let later = times.summary(of: times.charges, at: Self.noon + 3_600_000)
        #expect(later.charges == 22 && later.onTime == 20 && later.notGranted == 1 && later.late == 2)
        #expect(later.median == .after(millis: 11_000))
        #expect(later.p95 == .after(millis: 120_000))
        #expect(later.onTimeShare == 20.0 / 22)
        // At 90 s: the late grant is not made yet.
        let early = times.summary(of: times.charges, at: Self.noon + 90_000)
        #expect(early.notGranted == 2 && early.p95 == .notGranted)
        // At 30 s: no outcome is known yet.
        #expect(times.summary(of: times.charges, at: Self.noon + 30_000).charges == 0)
    }

    /// Three days of 10 charges a minute, one in 250 late; then, from `incidentHour` for an hour, `lateShare` of them granted 5 minutes late.
    private static func incidentInputs(lateShare: Double) -> (inputs: AlertInputs, incident: Int64) {
        let start = noon / 1000 - 3 * 86_400
        let incident = noon / 1000
        var charges: [Charge] = []
        var index = 0
        for minuteStart in stride(from: start, to: incident + 2 * 3600, by: 60) {
            for slot in 0..<10 {
                index += 1
                let millis = minuteStart * 1000 + Int64(slot) * 6000
                let inIncident = minuteStart >= incident && minuteStart < incident + 3600
                let late = inIncident ? Double(slot) < lateShare * 10 : index % 250 == 0
                charges.append(Charge(id: "\(index)", millis: millis, grantedAfter: late ? 300_000 : 900))
            }
        }
        var inputs = AlertInputs(startSeconds: start, endSeconds: incident + 2 * 3600, overall: [], sliceRows: [:])
        inputs.grantTimeSeries = times(charges).series(startSeconds: start, endSeconds: incident + 2 * 3600)
        return (inputs, incident)
    }

    @Test("half the charges granted 5 minutes late page within minutes; one in 250 late stays quiet")
    func burnAlerts() {
        let evaluator = AlertEvaluator(policy: .default)
        let (inputs, incident) = Self.incidentInputs(lateShare: 0.5)
        let episodes = evaluator.episodes(from: incident - 86_400, to: incident + 2 * 3600, stepSeconds: 60, inputs: inputs)
        let page = episodes.first { $0.severity == .page && $0.first.kind == .timeToGrantBurn }
        #expect(
            page.map { $0.startsAt - incident } ?? .max <= 10 * 60, "\(episodes.map { "\($0.first.kind) \(RFC3339.format(seconds: $0.startsAt))" })")
        #expect(page?.first.labels == SeriesLabels(actionType: "purchase", store: "apple"))
        #expect(episodes.allSatisfy { $0.startsAt >= incident }, "nothing before the incident")

        let (quiet, _) = Self.incidentInputs(lateShare: 0)
        #expect(evaluator.episodes(from: incident - 86_400, to: incident + 2 * 3600, stepSeconds: 60, inputs: quiet).isEmpty)
    }
}
