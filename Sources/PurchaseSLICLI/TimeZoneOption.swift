import ArgumentParser
import PurchaseSLIAnalysis
import PurchaseSLICore

/// The `--time-zone` option of the commands that write times for people: pages, text, the weekly review.
struct TimeZoneOption: ParsableArguments {
    @Option(
        name: .customLong("time-zone"),
        help: ArgumentHelp(
            "Write times, axis labels and the review's days and ISO weeks in this zone: an IANA name such as Europe/Berlin, UTC, or an offset such as +05:30 (default: the policy's timeZone, else UTC; JSON stays UTC).",
            valueName: "zone"))
    var timeZone: String?

    /// The zone `--time-zone` names, else the policy's `timeZone`, else UTC.
    func zone(_ policy: SLOPolicy) throws -> TimeZoneOffsets {
        if let timeZone { return try TimeZoneOffsets.resolving(timeZone, source: "--time-zone") }
        return try policy.timeZone.map { try TimeZoneOffsets.resolving($0, source: "the policy's timeZone") } ?? .utc
    }
}
