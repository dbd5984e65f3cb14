import PurchaseSLIAnalysis
import Testing

/// When a version shows as released: its first hour at 1 % of its platform's events after a day below.
@Suite struct ReleaseMarkersTests {
    private let day: Int64 = 86_400
    private let origin: Int64 = 1_795_000_000 / 86_400 * 86_400

    /// `hours` hours of `total` events an hour on iOS, `share(hour)` of them on 4.12.0, the rest on 4.11.0;
    /// and a thin macOS with 30 events an hour, a third on 4.12.0.
    private func counts(hours: Int, total: Int64 = 1000, share: (Int) -> Double) -> [Int64: [ReleaseMarkers.PlatformVersion: Int64]] {
        var counts: [Int64: [ReleaseMarkers.PlatformVersion: Int64]] = [:]
        for hour in 0..<hours {
            let candidate = Int64((Double(total) * share(hour)).rounded())
            counts[origin + Int64(hour) * 3600] = [
                .init(platform: "iOS", version: "4.12.0"): candidate, .init(platform: "iOS", version: "4.11.0"): total - candidate,
                .init(platform: "macOS", version: "4.12.0"): 10, .init(platform: "macOS", version: "4.11.0"): 20,
            ]
        }
        return counts
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var share: @Sendable (Int) -> Double
        var marked: [Int]
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "a release from hour 30 at 2 %", share: { $0 >= 30 ? 0.02 : 0 }, marked: [30]),
        Case(name: "a tester's 0.5 % never marks", share: { _ in 0.005 }, marked: []),
        Case(name: "a version there from the start is not new", share: { _ in 0.4 }, marked: []),
        Case(name: "pulled for a day and released again", share: { $0 >= 30 && ($0 < 40 || $0 >= 70) ? 0.02 : 0 }, marked: [30, 70]),
        Case(name: "dipping below for a few hours is one release", share: { $0 >= 30 && ($0 < 40 || $0 >= 50) ? 0.02 : 0 }, marked: [30]),
    ]

    @Test(arguments: cases)
    func aVersionIsMarkedWhereItReachesOnePercent(_ testCase: Case) {
        let reaches = ReleaseMarkers.reaches(hours: counts(hours: 96, share: testCase.share), from: origin + day, to: origin + 4 * day)
        #expect(reaches.map { Int(($0.timeSeconds - origin) / 3600) } == testCase.marked)
        #expect(reaches.allSatisfy { $0.platform == "iOS" && $0.version == "4.12.0" }, "a thin platform's hours tell nothing")
    }

    @Test func aQuietDayOrAGapInTheDataMarksNoVersionAgain() {
        var hours = counts(hours: 96) { $0 >= 30 ? 0.02 : 0 }
        // Hours 50 to 79: thin traffic (30 events), then hours 80 to 84 missing.
        for hour in 50..<80 {
            hours[origin + Int64(hour) * 3600] = [.init(platform: "iOS", version: "4.12.0"): 1, .init(platform: "iOS", version: "4.11.0"): 29]
        }
        for hour in 80..<85 { hours[origin + Int64(hour) * 3600] = nil }
        let reaches = ReleaseMarkers.reaches(hours: hours, from: origin + day, to: origin + 4 * day)
        #expect(reaches.map { Int(($0.timeSeconds - origin) / 3600) } == [30])
    }

    @Test func onlyReachesInTheRangeAreReturned() {
        let reaches = ReleaseMarkers.reaches(hours: counts(hours: 96) { $0 >= 30 ? 0.02 : 0 }, from: origin + 31 * 3600, to: origin + 4 * day)
        #expect(reaches.isEmpty)
    }
}
