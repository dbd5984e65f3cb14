/// Which counts rose from one period to the next beyond chance: each count's rate per trial this period
/// against the period before (exact, conditional on the two periods' total), Holm-corrected over the counts
/// tested together. What ranks the weekly review's failure reasons by how much they rose.
public enum RiseTest {
    /// Per count, the adjusted one-sided p-value that it rose: `current` of `trials.current` against
    /// `previous` of `trials.previous`; 1 where a period has no trial.
    public static func adjustedPValues(_ counts: [(current: Int64, previous: Int64)], trials: (current: Int64, previous: Int64)) -> [Double] {
        let raw = counts.map { count in
            RateTest.poissonRateExcess(
                observed: count.current, exposure: trials.current, baselineObserved: count.previous, baselineExposure: trials.previous)
        }
        return ProportionTest.holmAdjusted(raw)
    }
}
