import PurchaseSLICore
import Testing

@testable import PurchaseSLIRendering

/// The labelled times of chart axes.
@Suite struct TimeAxisTests {
    private func seconds(_ text: String) -> Int64 { RFC3339.parseMillis(text)! / 1000 }

    @Test(arguments: [
        ("2026-11-14T00:00:00Z", "2026-11-15T00:00:00Z", 3 * 3600, "Nov 14"),
        ("2026-11-09T00:00:00Z", "2026-11-16T00:00:00Z", 86_400, "Nov 9"),
        ("2026-10-01T00:00:00Z", "2026-11-20T00:00:00Z", 7 * 86_400, "Oct 5"),
        ("2026-04-01T00:00:00Z", "2026-11-20T00:00:00Z", 28 * 86_400, "Apr 13"),
    ])
    func ticksAreRoundAndWeeksStartOnMonday(from: String, to: String, step: Int64, firstLabel: String) throws {
        let ticks = TimeAxis.ticks(from: seconds(from), to: seconds(to))
        #expect(ticks.count >= 2 && ticks.count <= 9)
        #expect(ticks.first?.label == firstLabel)
        #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $1.seconds - $0.seconds == step })
        #expect(ticks.allSatisfy { $0.seconds >= seconds(from) && $0.seconds <= seconds(to) })
        if step >= 7 * 86_400 {
            // 1970-01-05 was a Monday.
            #expect(ticks.allSatisfy { ($0.seconds - 4 * 86_400) % (7 * 86_400) == 0 })
        }
    }

    /// Daily ticks of a zone fall on its midnights, however long the day; hourly ones on its whole hours.
    @Test func ticksOfAZoneAreItsMidnightsAcrossAChangeOfOffset() {
        let berlin = TimeZoneOffsets(
            identifier: "Europe/Berlin", initialOffsetSeconds: 7200, changes: [.init(atSeconds: seconds("2026-10-25T01:00:00Z"), offsetSeconds: 3600)]
        )
        let ticks = TimeAxis.ticks(from: seconds("2026-10-22T12:00:00Z"), to: seconds("2026-10-28T12:00:00Z"), in: berlin)
        #expect(ticks.map(\.label) == ["Oct 23", "Oct 24", "Oct 25", "Oct 26", "Oct 27", "Oct 28"])
        #expect(
            ticks.map { RFC3339.format(seconds: $0.seconds) }.prefix(4) == [
                "2026-10-22T22:00:00Z", "2026-10-23T22:00:00Z", "2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z",
            ])
        let kolkata = TimeZoneOffsets(identifier: "Asia/Kolkata", initialOffsetSeconds: 19_800)
        let hourly = TimeAxis.ticks(from: seconds("2026-11-14T00:00:00Z"), to: seconds("2026-11-14T06:00:00Z"), in: kolkata)
        #expect(hourly.first.map { RFC3339.format(seconds: $0.seconds) } == "2026-11-14T00:30:00Z")
        #expect(hourly.first?.label == "06:00")
    }
}
