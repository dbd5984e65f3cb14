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
}
