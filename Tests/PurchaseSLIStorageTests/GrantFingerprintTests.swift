import PurchaseSLIStorage
import Testing

/// Which fingerprints may repeat: two grants of one fingerprint at most the span apart, the later at or
/// after the start.
@Suite struct GrantFingerprintTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// (millis, fingerprint) of each grant, in any order.
        let grants: [(Int64, UInt64)]
        let fingerprints: Set<UInt64>
        let times: [Int64]
        var testDescription: String { name }
    }

    static let span: Int64 = 1000
    static let from: Int64 = 10_000

    static let cases: [Case] = [
        Case(name: "none repeats", grants: [(10_000, 1), (10_100, 2), (10_200, 3)], fingerprints: [], times: []),
        Case(name: "the span apart, given late first", grants: [(11_000, 1), (10_000, 1)], fingerprints: [1], times: [11_000]),
        Case(name: "a millisecond beyond the span", grants: [(10_000, 1), (11_001, 1)], fingerprints: [], times: []),
        Case(name: "the same millisecond", grants: [(10_500, 7), (10_500, 7)], fingerprints: [7], times: [10_500]),
        Case(name: "the earlier before the start", grants: [(9_500, 4), (10_200, 4)], fingerprints: [4], times: [10_200]),
        Case(name: "both before the start", grants: [(9_000, 4), (9_900, 4)], fingerprints: [], times: []),
        Case(
            name: "a chain: each within the span of the one before, the first far from the last",
            grants: [(12_500, 5), (10_000, 5), (11_000, 5), (11_900, 5), (10_300, 6)], fingerprints: [5], times: [11_000, 11_900, 12_500]),
    ]

    @Test(arguments: cases)
    func repeating(_ test: Case) {
        let found = GrantFingerprint.repeating(
            test.grants.map { GrantFingerprint(millis: $0.0, transaction: $0.1) }, fromMillis: Self.from, spanMillis: Self.span)
        #expect(found.fingerprints == test.fingerprints)
        #expect(found.times == test.times)
    }
}
