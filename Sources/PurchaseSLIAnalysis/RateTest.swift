import Foundation

/// Exact tests on event rates.
enum RateTest {
    /// One-sided p-value that a Poisson rate with `observed` events over `exposure` exceeds one with
    /// `baselineObserved` over `baselineExposure`: under equal rates, given the total, the observed count
    /// is binomial with p = exposure / (exposure + baselineExposure); the p-value is P(X ≥ observed).
    /// Exact (summed in log space); see ``binomialUpperTail(atLeast:trials:probability:)`` for the cost.
    static func poissonRateExcess(
        observed: Int64, exposure: Int64, baselineObserved: Int64, baselineExposure: Int64
    ) -> Double {
        guard observed > 0, exposure > 0, baselineExposure > 0 else { return 1 }
        let total = observed + baselineObserved
        let p = Double(exposure) / Double(exposure + baselineExposure)
        return binomialUpperTail(atLeast: observed, trials: total, probability: p)
    }

    /// P(X ≤ k) for X ~ Binomial(n, p): P(Y ≥ n − k) for Y = n − X ~ Binomial(n, 1 − p)
    /// (``binomialUpperTail(atLeast:trials:probability:)``). For k below the mode (few failures against a
    /// high error rate, a series that has recovered) that sums a handful of terms from k down, where
    /// 1 − P(X ≥ k + 1) sums every term from k up to past the mode.
    static func binomialLowerTail(atMost k: Int64, trials n: Int64, probability p: Double) -> Double {
        guard k >= 0 else { return 0 }
        return binomialUpperTail(atLeast: n - k, trials: n, probability: 1 - p)
    }

    /// P(X ≥ k) for X ~ Binomial(n, p). Sums the terms from k up; past the mode (about n·p) each term is
    /// smaller than the one before by a shrinking ratio, so the sum stops once the rest of the tail is below
    /// 1e-16 of it: O(n·p − k) plus O(√(n·p)) terms rather than O(n − k).
    static func binomialUpperTail(atLeast k: Int64, trials n: Int64, probability p: Double) -> Double {
        guard k > 0 else { return 1 }
        guard k <= n, p > 0 else { return 0 }
        guard p < 1 else { return 1 }
        let logP = log(p)
        let logQ = log1p(-p)
        // `term` is the log of term i; `sum` adds the terms so far relative to `largest`, the largest of their logs.
        var term = logFactorial(n) - logFactorial(k) - logFactorial(n - k) + Double(k) * logP + Double(n - k) * logQ
        var largest = term
        var sum = 0.0
        for i in k...n {
            if term > largest {
                sum *= exp(largest - term)
                largest = term
            }
            let relative = exp(term - largest)
            sum += relative
            guard i < n else { break }
            let step = log(Double(n - i)) - log(Double(i + 1)) + logP - logQ  // log(term i+1 / term i)
            let ratio = exp(step)
            // Past the mode the ratio only shrinks, so the rest of the tail is below relative · ratio / (1 − ratio).
            if ratio < 1, relative * ratio / (1 - ratio) < 1e-16 * sum { break }
            term += step
        }
        return min(1, exp(largest + log(sum)))
    }

    private static func logFactorial(_ n: Int64) -> Double {
        let value: Double = lgamma(Double(n) + 1)
        return value
    }
}
