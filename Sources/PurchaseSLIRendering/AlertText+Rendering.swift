import Foundation
public import PurchaseSLIAnalysis
public import PurchaseSLICore

extension AlertText {
    /// The text for an output: numbers and times formatted as everywhere (``NumberText``), values from
    /// events escaped by `escaping`, the rule's words as they are (only as each markup requires: entities in
    /// Slack and HTML); times in `zone`.
    public func rendered(_ escaping: TextEscaping, zone: TimeZoneOffsets = .utc) -> String {
        pieces.map { piece in
            switch piece {
            case .value(let value): escaping.escape(value)
            // An ISO 4217 code (three capitals) is no markup anywhere; another currency string is a value.
            case .money(let amount, let currency):
                escaping.escapeMarkup(NumberText.money(amount, currency: ""))
                    + (currency.count == 3 && currency.allSatisfy { $0.isASCII && $0.isUppercase }
                        ? escaping.escapeMarkup(currency) : escaping.escape(currency))
            default: escaping.escapeMarkup(Self.plain(piece, zone: zone))
            }
        }.joined()
    }

    /// A piece that is not a value, formatted.
    private static func plain(_ piece: Piece, zone: TimeZoneOffsets) -> String {
        switch piece {
        case .words(let text), .value(let text): text
        case .count(let value): NumberText.count(value)
        case .percent(let value): NumberText.percent(value)
        case .decimal(let value, let digits): value.map { String(format: "%.\(digits)f", $0) } ?? "n/a"
        case .duration(let seconds): NumberText.duration(seconds)
        case .seconds(let seconds): NumberText.seconds(seconds)
        case .step(let seconds): TimeStep(seconds: seconds).description
        case .time(let seconds): zone.timestamp(seconds)
        case .money(let amount, let currency): NumberText.money(amount, currency: currency)
        case .pValue(let value): NumberText.pValue(value)
        }
    }
}
