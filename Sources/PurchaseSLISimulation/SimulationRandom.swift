/// A seeded pseudo-random generator (xoshiro256**, seeded through SplitMix64).
///
/// Its output depends only on the seed: the same on every platform, Swift version and run, unlike the
/// standard library's generators and `random(in:)` helpers, whose algorithms may change.
public struct SimulationRandom: RandomNumberGenerator, Sendable, Hashable {
    private var state0: UInt64
    private var state1: UInt64
    private var state2: UInt64
    private var state3: UInt64

    /// Creates a generator; equal seeds give equal streams.
    public init(seed: UInt64) {
        var splitMix = seed
        func nextSplitMix() -> UInt64 {
            splitMix &+= 0x9E37_79B9_7F4A_7C15
            var z = splitMix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state0 = nextSplitMix()
        state1 = nextSplitMix()
        state2 = nextSplitMix()
        state3 = nextSplitMix()
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = rotate(state1 &* 5, 7) &* 9
        let shifted = state1 << 17
        state2 ^= state0
        state3 ^= state1
        state1 ^= state2
        state0 ^= state3
        state2 ^= shifted
        state3 = rotate(state3, 45)
        return result
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    /// A uniform double in [0, 1) with 53 random bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// A uniform integer in `0..<bound` (multiply-high; the bias is below 2^-32 for our bounds).
    mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A uniform integer in `range`.
    mutating func int(in range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(below(Int(range.upperBound - range.lowerBound) + 1))
    }

    /// An approximately standard normal value: the Irwin–Hall sum of six uniforms, rescaled.
    ///
    /// Uses only exactly rounded arithmetic, so it is identical everywhere; bounded at ±4.24.
    mutating func normal() -> Double {
        var sum = 0.0
        for _ in 0..<6 { sum += unit() }
        return (sum - 3) * 1.414_213_562_373_095_1
    }

    /// A log-normal value with the given median and log-scale spread.
    mutating func logNormal(median: Double, sigma: Double) -> Double {
        median * PortableMath.exp(sigma * normal())
    }

    /// A Poisson-distributed count with mean `mean`: Knuth's method below 30, a normal approximation above.
    mutating func poisson(mean: Double) -> Int {
        guard mean > 0, mean.isFinite else { return 0 }
        if mean < 30 {
            let limit = PortableMath.exp(-mean)
            var product = unit()
            var count = 0
            while product > limit {
                product *= unit()
                count += 1
            }
            return count
        }
        let value = (mean + mean.squareRoot() * normal()).rounded()
        return value > 0 ? Int(value) : 0
    }
}
