/// SplitMix64: a random number generator whose stream depends on its seed alone, so that a test's
/// generated inputs are the same on every run.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The state, advanced by each number drawn.
    public var state: UInt64

    /// A generator whose stream starts from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next number of the stream.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
