import PurchaseSLICore

/// One cell of a row whose columns are known at run time (a query's dimensions and counters): text, a
/// count, a number, amounts per currency (by currency, as computed), or nothing (`null`).
enum JSONCell: JSONWritable, Sendable {
    case null
    case text(String)
    case integer(Int64)
    case number(Double)
    case amounts([String: Double])

    /// `value` as a number, or nothing.
    static func number(_ value: Double?) -> JSONCell { value.map(JSONCell.number) ?? .null }

    /// The cell as a CSV field's text: nothing for null, a number as JSON writes it.
    var plainText: String {
        switch self {
        case .null: ""
        case .text(let text): text
        case .integer(let integer): String(integer)
        case .number(let number): JSONText.number(number)
        case .amounts(let amounts): amounts.sorted { $0.key < $1.key }.map { "\(JSONText.number($0.value)) \($0.key)" }.joined(separator: " + ")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .text(let text): try container.encode(text)
        case .integer(let integer): try container.encode(integer)
        case .number(let number): try container.encode(number)
        case .amounts(let amounts): try container.encode(JSONMembers(amounts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        }
    }

    /// Appends the cell's JSON text, as its `encode(to:)` writes it through ``JSONTextEncoder``.
    func writeJSON(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .text(let cell): text += JSONText.quoted(cell)
        case .integer(let integer): text += String(integer)
        case .number(let number): text += JSONText.number(number)
        case .amounts: text += JSONTextEncoder.text(self)
        }
    }
}
