import FuzzSupport
import PurchaseSLICore

/// An RRULE of any content (the first line) is a rule or an error; a rule is written back to text that
/// reads as the same rule, and its occurrences in a range (the next lines: the first start, the range's
/// start and its length, in seconds) are in order, inside the range, within COUNT and UNTIL, and those of
/// the whole walk from the first start that fall in the range (checked when the walk is short).
@_cdecl("LLVMFuzzerTestOneInput")
public func recurrenceRuleFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let lines = FuzzInput(start, count).lines
    guard let text = lines.first, let rule = try? RecurrenceRule(parsing: text) else { return 0 }
    guard (try? RecurrenceRule(parsing: rule.description)) == rule else { fuzzFailure("\(rule) does not read back as itself") }
    func number(_ index: Int, _ range: ClosedRange<Int64>, default value: Int64) -> Int64 {
        guard lines.count > index, let parsed = Int64(lines[index]) else { return value }
        return min(max(parsed, range.lowerBound), range.upperBound)
    }
    let first = number(1, RFC3339.representableSeconds, default: 1_795_000_000)
    let from = number(2, RFC3339.representableSeconds, default: first)
    let length = number(3, 0...(2 * 366 * 86_400), default: 30 * 86_400)
    let starts = rule.starts(first: first, notBefore: from, before: from + length)
    guard zip(starts, starts.dropFirst()).allSatisfy({ $0 < $1 }), starts.allSatisfy({ $0 >= from && $0 < from + length && $0 >= first }),
        starts.allSatisfy({ $0 <= rule.untilSeconds ?? .max }), starts.count <= rule.count ?? .max
    else { fuzzFailure("\(rule) from \(first): \(starts) outside [\(from), \(from + length))") }
    if from >= first, from - first <= 3 * 366 * 86_400 {
        let walked = rule.starts(first: first, before: from + length).filter { $0 >= from }
        if walked != starts { fuzzFailure("\(rule) from \(first) at \(from): \(starts), the walk \(walked)") }
    }
    if let gap = rule.smallestGapSeconds(first: first), gap <= 0 { fuzzFailure("\(rule): a gap of \(gap) s") }
    return 0
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzRecurrenceRule_main")
public func fuzzRecurrenceRuleMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, recurrenceRuleFuzzTarget)
}
