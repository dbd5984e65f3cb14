import Foundation
public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// The words for what store data a figure rests on, the same in every output: nothing when the stores'
/// notifications cover the whole period, else which stretches they cover, or that there are none.
public enum StoreCoverageText {
    /// "App Store notifications cover only 2026-11-18 to 2026-11-19 of this week", "no store notifications
    /// for this period" (no store covers any of it), "no Google Play notifications for this period" (per
    /// store, joined by "; "); nil when every store listed covers the whole period.
    public static func sentence(_ coverage: StoreCoverage, period: String = "this period", zone: TimeZoneOffsets = .utc) -> String? {
        guard !coverage.isWhole else { return nil }
        guard !coverage.isEmpty else { return "no store notifications for \(period)" }
        let parts = coverage.stores.compactMap { store -> String? in
            guard !coverage.coversWhole(store) else { return nil }
            let spans = coverage.spans[store] ?? []
            guard !spans.isEmpty else { return "no \(store.displayName) notifications for \(period)" }
            let shown = spans.prefix(3).map { stretch($0, zone: zone) }
            let more = spans.count > 3 ? " and \(spans.count - 3) more stretches" : ""
            return "\(store.displayName) notifications cover only \(listed(shown))\(more) of \(period)"
        }
        return parts.joined(separator: "; ")
    }

    /// ``sentence(_:period:zone:)`` with a capital and a full stop, for a line of its own; nil when whole.
    public static func line(_ coverage: StoreCoverage, period: String = "this period", zone: TimeZoneOffsets = .utc) -> String? {
        sentence(coverage, period: period, zone: zone).map { $0.prefix(1).uppercased() + $0.dropFirst() + "." }
    }

    /// "2026-11-18 to 2026-11-19" for whole local days, else "2026-11-18 16:00 to 2026-11-19 03:00".
    static func stretch(_ span: Range<Int64>, zone: TimeZoneOffsets) -> String {
        let wholeDays = zone.localSeconds(span.lowerBound) % .secondsPerDay == 0 && zone.localSeconds(span.upperBound) % .secondsPerDay == 0
        guard wholeDays else { return "\(zone.minute(span.lowerBound)) to \(zone.minute(span.upperBound))" }
        let (first, last) = (zone.date(span.lowerBound), zone.date(span.upperBound - 1))
        return first == last ? first : "\(first) to \(last)"
    }

    /// "a", "a and b", "a, b and c".
    private static func listed(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }

    /// "2 days of data", "1.5 days of data", "18 h of data", "no data".
    public static func dataAmount(_ basis: BudgetBasis) -> String {
        let seconds = basis.dataSeconds
        guard seconds >= .secondsPerHour else { return seconds > 0 ? "under an hour of data" : "no data" }
        guard seconds >= .secondsPerDay else { return "\(seconds / .secondsPerHour) h of data" }
        let days = (Double(seconds) / .secondsPerDay * 10).rounded() / 10
        let text = days == days.rounded() ? String(Int(days)) : String(format: "%.1f", days)
        return "\(text) day\(days == 1 ? "" : "s") of data"
    }

    /// "28d (2 days of data)" when the basis is partial, else "28d": the window a budget is over.
    public static func window(_ window: SLOWindow, basis: BudgetBasis?) -> String {
        "\(window)" + (basis.flatMap { $0.isPartial ? " (\(dataAmount($0)))" : nil } ?? "")
    }
}

/// What of a range the stores' notifications cover, as JSON: `{"from", "to", "whole", "stores": [{"store",
/// "coveredSeconds", "covered": [{"from", "to"}]}], "text"}`, times RFC 3339 UTC, `text` the sentence the
/// other outputs show (null when the notifications cover the whole range).
public struct StoreCoverageJSON: Encodable, Sendable {
    /// One store's coverage.
    struct Store: Encodable {
        struct Span: Encodable {
            let from: JSONTime
            let to: JSONTime
        }

        let store: String
        let coveredSeconds: Int64
        let covered: [Span]
    }

    let from: JSONTime
    let to: JSONTime
    let whole: Bool
    let stores: [Store]
    let text: String?

    /// The coverage of `coverage`, its sentence saying `period` ("this incident's span").
    public init(_ coverage: StoreCoverage, period: String) {
        from = JSONTime(coverage.fromSeconds)
        to = JSONTime(coverage.toSeconds)
        whole = coverage.isWhole
        stores = coverage.stores.map { store in
            Store(
                store: store.rawValue, coveredSeconds: coverage.coveredSeconds(of: store),
                covered: (coverage.spans[store] ?? []).map { Store.Span(from: JSONTime($0.lowerBound), to: JSONTime($0.upperBound)) })
        }
        text = StoreCoverageText.line(coverage, period: period)
    }
}
