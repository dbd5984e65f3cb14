import PurchaseSLICore
import Testing

/// Times and durations from users are range-checked where they are parsed, so that no later arithmetic
/// (differences of times, steps, windows) can overflow and stop the process.
@Suite struct UserInputRangeTests {
    static let now: Int64 = 1_794_648_600  // 2026-11-14T09:30:00Z

    @Test(
        arguments: [
            ("now-9223372036854775807s", nil), ("-9223372036854775807s", nil), ("now-106751991167300d", nil),
            ("now-36500d", nil), ("now-56y", nil), ("0000-01-01", nil), ("1969-12-31T23:59:59Z", nil),
            ("1970-01-01", 0), ("9999-12-31", 253_402_214_400), ("9999-12-31T23:59:59Z", 253_402_300_799),
            ("now-7d", now - 7 * 86_400), ("-90m", now - 5400), ("now", now),
        ] as [(String, Int64?)])
    func timesOutsideTheSupportedRangeAreRefused(text: String, seconds: Int64?) {
        #expect(TimeArgument(text, nowSeconds: Self.now)?.seconds == seconds)
    }

    @Test(
        arguments: [
            ("9999999999999d", nil), ("9223372036854775807s", nil), ("36501d", nil), ("5215w", nil),
            ("99999999999999999999999s", nil), ("0m", nil), ("-5m", nil),
            ("36500d", 36_500 * 86_400), ("5m", 300), ("2w", 1_209_600),
        ] as [(String, Int64?)])
    func durationsAboveAHundredYearsAreRefused(text: String, seconds: Int64?) {
        #expect(TimeStep(parsing: text)?.seconds == seconds)
    }

    @Test(
        arguments: [
            ("-9223372036854775807s", "9999-12-31", "1d", "from: expected"),
            ("now-1h", "now-9223372036854775807s", nil, "to: expected"),
            ("1970-01-01", "9999-12-31", "1m", "more than a million time steps"),
            ("2026-11-01", "2026-11-02", "9223372036854775807s", "step: expected"),
        ] as [(String, String, String?, String)])
    func queryArgumentsThatWouldOverflowAreErrors(from: String, to: String, step: String?, message: String) {
        #expect {
            try CountQuery(from: from, to: to, by: nil, filters: [], step: step, nowSeconds: Self.now)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
