import Foundation
import FuzzSupport
import PurchaseSLIAnalysis
import PurchaseSLICore

/// A `POST /v1/maintenance` body of any content is a window or an error naming its field, never a trap or
/// a long walk; a window accepted has a printable reason, occurrences that do not run into each other, in
/// order, of its length, and a share of 28 days that is found (against a daily window of every app).
@_cdecl("LLVMFuzzerTestOneInput")
public func maintenanceBodyFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let now: Int64 = 1_795_000_000
    guard let declaration = try? JSONDecoder().decode(MaintenanceDeclaration.self, from: Data(FuzzInput(start, count).bytes)),
        let window = try? declaration.window(id: "mw-fuzz", createdSeconds: now, source: .stored, nowSeconds: now)
    else { return 0 }
    guard window.reason.unicodeScalars.contains(where: { !$0.properties.isWhitespace && $0.properties.generalCategory != .format }),
        !window.reason.unicodeScalars.contains("\u{0}")
    else { fuzzFailure("reason without printable text accepted: \(Array(window.reason.unicodeScalars))") }
    let occurrences = window.occurrences(from: now - 400 * 86_400, to: now + 400 * 86_400)
    for (earlier, later) in zip(occurrences, occurrences.dropFirst()) where earlier.upperBound > later.lowerBound {
        fuzzFailure("occurrences \(earlier) and \(later) of \(window.recurrence.map { "\($0)" } ?? "a one-off") overlap")
    }
    guard occurrences.allSatisfy({ $0.count == Int(window.durationSeconds) }) else { fuzzFailure("an occurrence of another length") }
    let daily = MaintenanceWindow(
        id: "mw-daily", startSeconds: now, endSeconds: now + 3600, recurrence: try? RecurrenceRule(parsing: "FREQ=DAILY"), reason: "daily")
    if let share = MaintenanceCalendar([daily]).busiestShare(adding: window, nowSeconds: now),
        share.coveredSeconds < 0 || share.coveredSeconds > MaintenanceCalendar.shareSpanSeconds
    {
        fuzzFailure("a share of \(share.coveredSeconds) s of 28 days")
    }
    return 0
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzMaintenanceBody_main")
public func fuzzMaintenanceBodyMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, maintenanceBodyFuzzTarget)
}
