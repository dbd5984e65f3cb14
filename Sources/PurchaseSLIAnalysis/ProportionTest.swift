import Foundation

/// Tests and intervals for comparing two proportions (events of a kind per trials).
enum ProportionTest {
    /// One-sided Fisher exact test: the probability, when both groups share one proportion, that the
    /// first group holds at least `count` of the `count + otherCount` events, given the group sizes.
    /// Summed from `count` upward with the hypergeometric terms' ratio until they no longer matter.
    static func fisherUpperTail(count: Int64, trials: Int64, otherCount: Int64, otherTrials: Int64) -> Double {
        let population = trials + otherTrials
        let events = count + otherCount
        guard trials > 0, otherTrials > 0, events > 0, count > 0 else { return 1 }
        let highest = min(events, trials)
        guard count <= highest else { return 0 }
        var logTerm = logChoose(events, count) + logChoose(population - events, trials - count) - logChoose(population, trials)
        var sum = 0.0
        var k = count
        while true {
            let term = exp(logTerm)
            sum += term
            if k == highest || (term < sum * 1e-17 && k > count) { break }
            // P(k + 1) / P(k) for the hypergeometric distribution.
            let ratio = Double(events - k) * Double(trials - k) / (Double(k + 1) * Double(population - events - trials + k + 1))
            logTerm += log(ratio)
            k += 1
        }
        return min(1, sum)
    }

    /// The Wilson score interval of `count / trials` at the given z (1.96 for 95 %).
    static func wilsonInterval(count: Int64, trials: Int64, z: Double = 1.96) -> ClosedRange<Double> {
        guard trials > 0 else { return 0...1 }
        let n = Double(trials)
        let p = Double(count) / n
        let z2 = z * z
        let center = (p + z2 / (2 * n)) / (1 + z2 / n)
        let half = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / (1 + z2 / n)
        return max(0, center - half)...min(1, center + half)
    }

    /// Holm's step-down adjustment of p-values for testing them all at once, in the input's order.
    static func holmAdjusted(_ pValues: [Double]) -> [Double] {
        let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
        var adjusted = pValues
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, min(1, Double(pValues.count - rank) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }

    private static func logChoose(_ n: Int64, _ k: Int64) -> Double {
        let value: Double = lgamma(Double(n) + 1) - lgamma(Double(k) + 1) - lgamma(Double(n - k) + 1)
        return value
    }
}
