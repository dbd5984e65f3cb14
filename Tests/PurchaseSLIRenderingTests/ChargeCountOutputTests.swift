import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIRendering
import Testing

@Suite("query --of charges as a table, JSON and CSV")
struct ChargeCountOutputTests {
    private func output() throws -> ChargeCountOutput {
        var row = ChargeCounts.Row(timeSeconds: nil, key: ["coins_500"])
        row.charges = 501
        row.expectingGrant = 501
        row.granted = 371
        row.ungranted = 130
        row.chargedAmounts = ["USD": 2499.99]
        row.ungrantedAmounts = ["USD": 648.70]
        var refundsOnly = ChargeCounts.Row(timeSeconds: nil, key: ["=cmd()"])
        refundsOnly.refunds = 2
        let query = try ChargeCountQuery(
            from: "2026-11-20T08:00:00Z", to: "2026-11-20T10:00:00Z", at: "2026-11-20T10:00:00Z", by: "productID", filters: [],
            step: nil, nowSeconds: 0)
        return ChargeCountOutput(query: query, rows: [row, refundsOnly])
    }

    @Test("the table lines up the counts and amounts, with no trailing spaces")
    func table() throws {
        let lines = try output().table().split(separator: "\n")
        #expect(lines[0].hasPrefix("productID  charges  expecting grant  granted  not granted  refunds"))
        #expect(lines[1].contains("501") && lines[1].contains("130") && lines[1].hasSuffix("648.70 USD"))
        #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
    }

    @Test("JSON has every counter and the amounts per currency")
    func json() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(try output().json.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows[0]["productID"] as? String == "coins_500" && rows[0]["ungranted"] as? Int == 130)
        #expect((rows[0]["ungrantedAmounts"] as? [String: Double])?["USD"] == 648.70)
        #expect(rows[1]["refunds"] as? Int == 2)
    }

    @Test("CSV has a line per currency, and a cell that would be a formula is quoted")
    func csv() throws {
        let lines = try output().csv.split(separator: "\n")
        #expect(lines[0] == "productID,charges,expectingGrant,granted,ungranted,refunds,currency,chargedAmount,ungrantedAmount,refundedAmount")
        #expect(lines[1] == "coins_500,501,501,371,130,0,USD,2499.99,648.7,0")
        #expect(lines[2].hasPrefix("\"'=cmd()\",0,0,0,0,2,"))
    }
}
