import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIRendering
import Testing

/// What the stores' notifications cover of a range, and the words every surface says it with: hours with
/// a notification, gaps of up to 6 h between them bridged, the quiet stretch up to the time read too.
@Suite struct StoreCoverageTests {
    /// 2026-11-18T00:00:00Z.
    private let day = RFC3339.parseMillis("2026-11-18T00:00:00Z")! / 1000
    private let hour: Int64 = 3600

    /// Notifications every hour of `hours` (offsets from `day`) of the App Store.
    private func coverage(
        from: Int64, to: Int64, read: Int64? = nil, apple: [Int64], google: [Int64]? = nil
    ) -> StoreCoverage {
        var hours: [Store: [Int64]] = [.apple: apple.map { day + $0 * hour }]
        if let google { hours[.google] = google.map { day + $0 * hour } }
        return StoreCoverage(
            fromSeconds: day + from * hour, toSeconds: day + to * hour, readSeconds: day + (read ?? to) * hour, hours: hours,
            storesKept: Set(hours.keys))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var from: Int64, to: Int64, read: Int64?
        var apple: [Int64]
        var google: [Int64]?
        var covered: [Range<Int64>]
        var sentence: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "every hour of two days: whole, nothing said", from: 0, to: 48, read: nil, apple: Array(0..<48), covered: [0..<48],
            sentence: nil),
        Case(
            name: "a quiet stretch of 6 h is bridged", from: 0, to: 24, read: nil, apple: Array(0..<2) + Array(8..<24), covered: [0..<24],
            sentence: nil),
        Case(
            name: "a gap of 7 h is not", from: 0, to: 24, read: nil, apple: [0, 1] + Array(9..<24), covered: [0..<2, 9..<24],
            sentence:
                "App Store notifications cover only 2026-11-18 00:00 to 2026-11-18 02:00 and 2026-11-18 09:00 to 2026-11-19 00:00 of this period"),
        Case(
            name: "a week whose notifications begin on its third day", from: -48, to: 120, read: nil, apple: Array(0..<48),
            covered: [0..<48], sentence: "App Store notifications cover only 2026-11-18 to 2026-11-19 of this period"),
        Case(
            name: "the last 3 h before the time read are not missing", from: 0, to: 24, read: 24, apple: Array(0..<21), covered: [0..<24],
            sentence: nil),
        Case(
            name: "none of the range", from: -400, to: -200, read: nil, apple: Array(0..<48), covered: [],
            sentence: "no store notifications for this period"),
        Case(
            name: "one store whole, the other absent", from: 0, to: 24, read: nil, apple: Array(0..<24), google: [], covered: [0..<24],
            sentence: "no Google Play notifications for this period"),
    ]

    @Test(arguments: cases)
    func coverageAndItsWords(_ test: Case) {
        let coverage = coverage(from: test.from, to: test.to, read: test.read, apple: test.apple, google: test.google)
        #expect(coverage.spans[.apple] == test.covered.map { (day + $0.lowerBound * hour)..<(day + $0.upperBound * hour) })
        #expect(StoreCoverageText.sentence(coverage) == test.sentence)
        #expect(coverage.isWhole == (test.sentence == nil))
    }

    /// A week read with the week before: each is told apart, and the JSON carries each store's stretches.
    @Test func restrictedToAWeekAndItsJSON() {
        let both = coverage(from: -168, to: 168, apple: Array(0..<48))
        let before = both.restricted(from: day - 168 * hour, to: day)
        let after = both.restricted(from: day, to: day + 168 * hour)
        #expect(before.isEmpty && !before.isWhole && after.coveredSeconds(of: .apple) == 48 * hour)
        #expect(
            JSONTextEncoder.text(StoreCoverageJSON(after, period: "this week"))
                == #"{"from":"2026-11-18T00:00:00Z","to":"2026-11-25T00:00:00Z","whole":false,"stores":[{"store":"apple","coveredSeconds":172800,"#
                + #""covered":[{"from":"2026-11-18T00:00:00Z","to":"2026-11-20T00:00:00Z"}]}],"#
                + #""text":"App Store notifications cover only 2026-11-18 to 2026-11-19 of this week."}"#)
    }

    /// A 28-day budget on 2 days of data says so; on all but its last minutes it says nothing.
    @Test func budgetBasis() {
        let window = SLOWindow.rolling(seconds: 28 * 86_400)
        let end = day + 48 * hour
        let coverage = coverage(from: -28 * 24 + 48, to: 48, apple: Array(0..<48))
        let basis = coverage.budgetBasis(of: .apple, window: window, windowStart: end - 28 * 86_400)
        #expect(basis.isPartial && StoreCoverageText.window(window, basis: basis) == "28d (2 days of data)")
        let whole = BudgetBasis(window: window, windowSeconds: 28 * 86_400, dataSeconds: 28 * 86_400 - 1800)
        #expect(!whole.isPartial && StoreCoverageText.window(window, basis: whole) == "28d")
        #expect(StoreCoverageText.dataAmount(BudgetBasis(window: window, windowSeconds: 86_400 * 28, dataSeconds: 36 * 3600)) == "1.5 days of data")
        #expect(StoreCoverageText.dataAmount(BudgetBasis(window: window, windowSeconds: 86_400 * 28, dataSeconds: 5 * 3600)) == "5 h of data")
    }
}
