/// Transcendental functions built from exactly rounded arithmetic, so results never depend on the platform's libm.
enum PortableMath {
    private static let ln2High = 0.693_147_180_369_123_816_49
    private static let ln2Low = 1.908_214_929_270_587_700_02e-10

    /// e raised to `x`, accurate to a few ulps for |x| < 700; 0 below -700 and infinity above 700.
    static func exp(_ x: Double) -> Double {
        guard x > -700 else { return 0 }
        guard x < 700 else { return .infinity }
        let k = (x / (ln2High + ln2Low)).rounded()
        let r = (x - k * ln2High) - k * ln2Low
        var term = 1.0
        var sum = 1.0
        for n in 1...14 {
            term *= r / Double(n)
            sum += term
        }
        return Double(sign: .plus, exponent: Int(k), significand: sum)
    }
}
