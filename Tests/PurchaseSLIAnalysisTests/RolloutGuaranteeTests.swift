import Foundation
import PurchaseSLICore
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLIAnalysis

/// A small seeded random generator (SplitMix64) for reproducible draws.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func unit() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
}

extension SplitMix {
    /// A binomial draw: by inversion when the mean is small, else the normal approximation.
    mutating func binomial(_ trials: Int64, _ probability: Double) -> Int64 {
        guard trials > 0, probability > 0 else { return 0 }
        let mean = Double(trials) * probability
        if mean > 40 {
            let deviation = (mean * (1 - probability)).squareRoot()
            let normal = (-2 * log(max(unit(), 1e-300))).squareRoot() * cos(2 * Double.pi * unit())
            return min(trials, max(0, Int64((mean + deviation * normal).rounded())))
        }
        var (count, term, sum) = (Int64(0), pow(1 - probability, Double(trials)), 0.0)
        sum = term
        let draw = unit()
        while draw > sum, count < trials {
            term *= Double(trials - count) / Double(count + 1) * probability / (1 - probability)
            count += 1
            sum += term
        }
        return count
    }
}

/// A week of a phased release drawn hour by hour: an app with 2,000 purchases an hour over three plans
/// (half of them of the monthly plan)
/// (a day's traffic follows the clock), 100 restores and 200 retries, whose new version gets 1, 2, 5,
/// 10, 20, 50 and 90 % of it on days 1 to 7 (10 % of users never update automatically).
private struct ReleaseSimulation {
    static let shares = [0.01, 0.02, 0.05, 0.10, 0.20, 0.50, 0.90]
    /// Purchases an hour of each plan, restores and retries.
    static let traffic: [(action: String, plan: String?, perHour: Double)] = [
        ("purchase", "coins", 600), ("purchase", "monthly", 1_000), ("purchase", "yearly", 400), ("restore", nil, 100), ("retry", nil, 200),
    ]
    /// The failure rate of each version's plan: 1 %, or what `regressed` says for the candidate.
    var regressed: [String: Double] = [:]

    /// The inputs of `hours` hours from the release's start, drawn with `random`.
    func inputs(hours: Int, random: inout SplitMix) -> RolloutInputs {
        var actionRows: [CountRow] = []
        var planRows: [CountRow] = []
        var releaseHours: [PhasedRelease.Hour] = []
        for hour in 0..<hours {
            let time = Int64(hour) * 3600
            let share = Self.shares[min(hour / 24, Self.shares.count - 1)]
            let clock = 1 + 0.6 * sin(2 * Double.pi * Double(hour % 24) / 24)
            var events = (candidate: Int64(0), all: Int64(0))
            var actions: [String: (OutcomeCounts, OutcomeCounts)] = [:]
            for entry in Self.traffic {
                let attempts = random.binomial(Int64(entry.perHour * clock * 2), 0.5)
                let onCandidate = random.binomial(attempts, share)
                var sides: [OutcomeCounts] = []
                for (version, count) in [("2.0", onCandidate), ("1.9", attempts - onCandidate)] {
                    let failureRate = version == "2.0" ? regressed[entry.plan ?? entry.action] ?? 0.01 : 0.01
                    let cancels = random.binomial(count, 0.04)
                    let failures = random.binomial(count - cancels, failureRate)
                    let conflicts = entry.action == "retry" ? random.binomial(count - cancels - failures, 0.05) : 0
                    let unfinished = random.binomial(count, 0.002)
                    let counts = OutcomeCounts(
                        start: count, success: count - cancels - failures - conflicts - unfinished, alreadyGranted: conflicts,
                        failure: failures, cancel: cancels, conflicts: conflicts)
                    sides.append(counts)
                    if let plan = entry.plan { planRows.append(CountRow(timeSeconds: time, key: [version, entry.action, plan], counts: counts)) }
                    events.all += counts.total
                    if version == "2.0" { events.candidate += counts.total }
                }
                let previous = actions[entry.action] ?? (OutcomeCounts(), OutcomeCounts())
                actions[entry.action] = (previous.0 + sides[0], previous.1 + sides[1])
            }
            for (action, sides) in actions {
                actionRows.append(CountRow(timeSeconds: time, key: ["2.0", action], counts: sides.0))
                actionRows.append(CountRow(timeSeconds: time, key: ["1.9", action], counts: sides.1))
            }
            releaseHours.append(PhasedRelease.Hour(startSeconds: time, candidateEvents: events.candidate, platformEvents: events.all))
        }
        return RolloutInputs(
            candidate: "2.0", baseline: "1.9", fromSeconds: 0, toSeconds: Int64(hours) * 3600, actionRows: actionRows,
            sliceRows: [.planID: planRows], release: PhasedRelease(hours: releaseHours))
    }
}

/// The guarantees of checking a release every hour, by seeded simulation.
@Suite struct RolloutGuaranteeTests {
    private let evaluator = RolloutEvaluator(policy: .default)

    /// 300 releases of an unchanged version, each checked every hour for 7 days: at most 1 % is ever
    /// held or rolled back; by the end of day 3 (1, 2 and 5 %, about 4,000 purchases on the candidate)
    /// nearly all proceed; and at one step no verdict goes back from proceed to wait.
    @Test func identicalReleasesCheckedHourlyAreRarelyFlaggedAndSettle() async throws {
        let evaluator = evaluator
        // Half a minute of work: on a thread of its own, not one the rest of the suite waits for.
        let (flagged, settledByDayThree, flips) = try await onDedicatedThread { () -> (Int, Int, [String]) in
            var random = SplitMix(seed: 12)
            var flagged = 0
            var settledByDayThree = 0
            var flips: [String] = []
            for release in 0..<300 {
                let report = evaluator.evaluate(ReleaseSimulation().inputs(hours: 7 * 24, random: &random))
                if report.checks.contains(where: { $0.verdict == .hold || $0.verdict == .rollback }) { flagged += 1 }
                if report.checks[3 * 24 - 1].verdict == .proceed { settledByDayThree += 1 }
                for (before, after) in zip(report.checks, report.checks.dropFirst())
                where before.verdict == .proceed && after.verdict == .insufficientData && before.step == after.step {
                    flips.append("release \(release) at hour \(after.timeSeconds / 3600)")
                }
            }
            return (flagged, settledByDayThree, flips)
        }
        #expect(flagged <= 3, "\(flagged) of 300 identical releases held or rolled back at some hourly check")
        #expect(settledByDayThree >= 285, "\(settledByDayThree) of 300 proceed at the end of day 3")
        #expect(flips.isEmpty, "proceed went back to wait: \(flips.prefix(5))")
    }

    /// A plan whose success rate falls from 99 % to 90 % on the candidate is rolled back while the
    /// release is at 1 %, within 24 hours, in each of 50 releases (after 4 to 11 hours when written),
    /// naming the plan.
    @Test func aPlanFallingTo90PercentAtOnePercentIsRolledBackWithinADay() async throws {
        let evaluator = evaluator
        let reports = try await onDedicatedThread { () -> [RolloutReport] in
            var random = SplitMix(seed: 7)
            return (0..<50).map { _ in evaluator.evaluate(ReleaseSimulation(regressed: ["monthly": 0.10]).inputs(hours: 24, random: &random)) }
        }
        var hoursToRollback: [Int] = []
        for report in reports {
            let first = try #require(report.checks.firstIndex { $0.verdict == .rollback }, "not rolled back within 24 hours")
            hoursToRollback.append(first + 1)
            let regressed = report.reasons.compactMap { reason -> String? in
                guard case .regression(let comparison) = reason else { return nil }
                return comparison.slice.slice?.value ?? comparison.slice.actionType
            }
            #expect(regressed.contains("monthly"), "the plan is named: \(regressed)")
        }
        #expect(hoursToRollback.count == 50, "hours to a rollback: \(hoursToRollback.sorted())")
    }
}
