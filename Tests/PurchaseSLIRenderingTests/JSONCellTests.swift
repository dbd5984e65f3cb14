import Foundation
import PurchaseSLICore
import Testing

@testable import PurchaseSLIRendering

/// A row's cells write themselves (``JSONWritable``) for speed; what they write must be what the encoder
/// writes of the same row, byte for byte, or a query's JSON would depend on how long it is.
@Suite struct JSONCellTests {
    private static let rows: [JSONMembers<JSONCell>] = [
        JSONMembers([
            ("time", .text("2026-11-14T10:00:00Z")), ("productID", .text("coins_\"100\"\\\n\u{1}\u{2028}é 🚀")), ("planID", .null),
            ("count", .integer(-3)), ("successRate", .number(0.25)), ("whole", .number(2)), ("nan", .number(.nan)),
            ("amounts", .amounts(["USD": 4.99, "EUR": 1])),
        ]),
        JSONMembers([("key \"quoted\"\t", .integer(0))]),
        JSONMembers([]),
    ]

    @Test("writeJSON writes what JSONTextEncoder writes", arguments: rows.indices)
    func writesWhatTheEncoderWrites(index: Int) throws {
        var written = ""
        Self.rows[index].writeJSON(to: &written)
        #expect(written == JSONTextEncoder.text(Self.rows[index]))
        #expect(try JSONSerialization.jsonObject(with: Data(written.utf8)) is [String: Any])
    }
}
