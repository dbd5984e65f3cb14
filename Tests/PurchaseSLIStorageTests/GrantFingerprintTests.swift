import PurchaseSLIStorage
import PurchaseSLITestSupport
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

/// `repeating` on many grants against the plain walk by time with a dictionary of each fingerprint's
/// latest grant: equal on sizes from none to thousands, with fingerprints that share their top bits (one
/// part) or their low bits (one bit of the bitmap that leaves out grants when those from the start are
/// few: a start late in the grants) and repeats at, within and just beyond the span.
@Suite struct GrantFingerprintRepeatingTests {
    static func byDictionary(_ grants: [GrantFingerprint], fromMillis: Int64, spanMillis: Int64) -> (fingerprints: Set<UInt64>, times: [Int64]) {
        var latest: [UInt64: Int64] = [:]
        var found: (fingerprints: Set<UInt64>, times: [Int64]) = ([], [])
        for grant in grants.sorted(by: { $0.millis < $1.millis }) {
            guard let before = latest.updateValue(grant.millis, forKey: grant.transaction), grant.millis >= fromMillis,
                grant.millis - before <= spanMillis
            else { continue }
            found.fingerprints.insert(grant.transaction)
            found.times.append(grant.millis)
        }
        return found
    }

    @Test(arguments: [0, 1, 2, 31, 64, 1_000, 20_000], [20, 95])
    func equalsTheWalkByTime(count: Int, startPercent: Int64) {
        var generator = SeededGenerator(seed: UInt64(count) + 11)
        let span: Int64 = 10_000
        var grants: [GrantFingerprint] = []
        for index in 0..<count {
            let millis = Int64(index) * 100 + Int64.random(in: 0..<100, using: &generator)
            // Every fourth grant shares its top 52 bits with the one before (many in one part), every fifth
            // its low 44 bits (one bit of the bitmap).
            let fingerprint =
                index % 4 == 3
                ? (grants[index - 1].transaction & ~0xFFF) | UInt64.random(in: 0...0xFFF, using: &generator)
                : index % 5 == 4
                    ? (grants[index - 1].transaction & 0xFFF_FFFF_FFFF) | (UInt64.random(in: 0...0xF_FFFF, using: &generator) << 44)
                    : generator.next()
            grants.append(GrantFingerprint(millis: millis, transaction: fingerprint))
        }
        for _ in 0..<(count / 10) {
            // A repeat within, at or just beyond the span of a random earlier grant.
            let earlier = grants[Int.random(in: 0..<count, using: &generator)]
            let gap = [0, 1, span / 2, span, span + 1].randomElement(using: &generator)!
            grants.append(GrantFingerprint(millis: earlier.millis + gap, transaction: earlier.transaction))
        }
        grants.shuffle(using: &generator)
        let from = Int64(count) * startPercent
        let found = GrantFingerprint.repeating(grants, fromMillis: from, spanMillis: span)
        let expected = Self.byDictionary(grants, fromMillis: from, spanMillis: span)
        #expect(found.fingerprints == expected.fingerprints)
        #expect(found.times == expected.times)
        #expect(count < 1_000 || found.times.count > count / 40 * Int(100 - startPercent) / 100)
    }
}
