import Foundation

/// Exact tests on event rates.
enum RateTest {
    /// One-sided p-value that a Poisson rate with `observed` events over `exposure` exceeds one with
    /// `baselineObserved` over `baselineExposure`: under equal rates, given the total, the observed count
    /// is binomial with p = exposure / (exposure + baselineExposure); the p-value is P(X ≥ observed).
    /// Exact (summed in log space); O(total − observed).
    static func poissonRateExcess(
        observed: Int64, exposure: Int64, baselineObserved: Int64, baselineExposure: Int64
    ) -> Double {
        guard observed > 0, exposure > 0, baselineExposure > 0 else { return 1 }
        let total = observed + baselineObserved
        let p = Double(exposure) / Double(exposure + baselineExposure)
        return binomialUpperTail(atLeast: observed, trials: total, probability: p)
    }

    /// P(X ≥ k) for X ~ Binomial(n, p).
    static func binomialUpperTail(atLeast k: Int64, trials n: Int64, probability p: Double) -> Double {
        guard k > 0 else { return 1 }
        guard k <= n else { return 0 }
        guard p < 1 else { return 1 }
        let logP = log(p), logQ = log1p(-p)
        let logChooseN = logFactorial(n)
        var terms: [Double] = []
        terms.reserveCapacity(Int(n - k + 1))
        for i in k...n {
            terms.append(logChooseN - logFactorial(i) - logFactorial(n - i) + Double(i) * logP + Double(n - i) * logQ)
        }
        let largest = terms.max()!
        let sum = terms.reduce(0) { $0 + exp($1 - largest) }
        return min(1, exp(largest + log(sum)))
    }

    private static func logFactorial(_ n: Int64) -> Double {
        let value: Double = lgamma(Double(n) + 1)
        return value
    }
}
