import Foundation
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

@Suite struct QueryCommandTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test func jsonHasTheDocumentedShape() async throws {
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        _ = try await store.record(
            [
                PurchaseEvent(
                    eventID: "1", timestampMillis: RFC3339.parseMillis("2026-11-14T09:31:00Z")!, productID: "coins_100",
                    actionType: .purchase, resultType: .success),
                PurchaseEvent(
                    eventID: "2", timestampMillis: RFC3339.parseMillis("2026-11-14T09:36:00Z")!, productID: "coins_100",
                    actionType: .purchase, resultType: .failure, statusCode: 503),
                PurchaseEvent(
                    eventID: "3", timestampMillis: RFC3339.parseMillis("2026-11-14T09:36:00Z")!, productID: "coins_100",
                    actionType: .purchase, resultType: .cancel),
            ], receivedAtMillis: 0)
        let query = CountQuery(
            fromSeconds: RFC3339.parseMillis("2026-11-14T09:30:00Z")! / 1000, toSeconds: RFC3339.parseMillis("2026-11-14T09:40:00Z")! / 1000,
            step: TimeStep(parsing: "5m"), groupBy: [.productID])
        let json = await QueryOutput(query: query, rows: try store.counts(query)).json
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["from"] as? String == "2026-11-14T09:30:00Z" && object["to"] as? String == "2026-11-14T09:40:00Z")
        #expect(object["step"] as? String == "5m" && object["by"] as? [String] == ["productID"])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(rows[0]["time"] as? String == "2026-11-14T09:30:00Z" && rows[0]["productID"] as? String == "coins_100")
        #expect(rows[0]["count"] as? Int == 1 && rows[0]["successRate"] as? Double == 1)
        #expect(rows[1]["valid"] as? Int == 1 && rows[1]["cancel"] as? Int == 1 && rows[1]["successRate"] as? Double == 0)
        #expect(rows[1]["cancelRate"] as? Double == 0.5 && rows[1]["count5xx"] as? Int == 1)
        for key in ["attempts", "success", "alreadyGranted", "failure", "pending", "count409"] { #expect(rows[1][key] is Int, "\(key)") }
    }

    /// The service streams the JSON in pieces: joined they are the whole answer, for any piece size.
    @Test(arguments: [1, 7, 20, 1000])
    func jsonInPiecesIsTheWholeAnswer(rowsPerChunk: Int) throws {
        let query = CountQuery(fromSeconds: 0, toSeconds: 1200, step: TimeStep(seconds: 60), groupBy: [.productID])
        let rows = (0..<20).map { CountRow(timeSeconds: Int64($0) * 60, key: ["p\($0 % 3)"], counts: OutcomeCounts(success: Int64($0))) }
        let output = QueryOutput(query: query, rows: rows)
        let joined = output.jsonChunks(rowsPerChunk: rowsPerChunk).joined()
        #expect(joined == output.json)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(joined.utf8)) as? [String: Any])
        #expect((parsed["rows"] as? [Any])?.count == 20)
        let empty = QueryOutput(query: query, rows: [])
        #expect(empty.jsonChunks(rowsPerChunk: rowsPerChunk).joined().hasSuffix(#""rows":[]}"#))
    }

    /// Repeated `--where` options are joined before ArgumentParser sees them (it is quadratic in the
    /// repetitions): the query gets the same filters, in both spellings, and other arguments stay.
    @Test func repeatedWhereOptionsAreJoinedAndSplitBack() throws {
        let arguments = ["query", "--from", "now-1h", "--where", "productID=a,b", "--to", "now", "--where=planID=", "--where", "productID=c"]
        let joined = RepeatedOptions.joiningWhere(arguments)
        #expect(joined.filter { $0 == "--where" }.count == 1 && joined.contains("--to"))
        let command = try #require(try PurchaseSLICommand.parseAsRoot(joined) as? QueryCommand)
        #expect(RepeatedOptions.splitting(command.filters) == ["productID=a,b", "planID=", "productID=c"])
        #expect(RepeatedOptions.joiningWhere(["alerts", "--where", "x"]) == ["alerts", "--where", "x"])
        let many = ["query", "--from", "now-1h", "--to", "now"] + (0..<10_000).flatMap { ["--where", "productID=p\($0)"] }
        #expect(RepeatedOptions.joiningWhere(many).count == 7)
    }

    @Test func successRateIsNullWithoutValidEvents() throws {
        let query = CountQuery(fromSeconds: 0, toSeconds: 60)
        let json = QueryOutput(query: query, rows: [CountRow(timeSeconds: nil, key: [], counts: OutcomeCounts(start: 3))]).json
        #expect(json.contains(#""successRate":null"#) && json.contains(#""attempts":3"#))
    }

    @Test(arguments: [
        ["query", "--from", "yesterday", "--to", "now"],
        ["query", "--from", "2026-11-14", "--to", "2026-11-13"],
        ["query", "--from", "now-1d", "--to", "now", "--by", "colour"],
        ["query", "--from", "now-1d", "--to", "now", "--where", "planID"],
        ["query", "--from", "now-1d", "--to", "now", "--where", "resultType=ok"],
        ["query", "--from", "now-1d", "--to", "now", "--step", "90s"],
        ["query", "--from", "now-1d", "--to", "now", "--format", "xml"],
    ])
    func rejectsBadArgumentsBeforeOpeningTheDatabase(arguments: [String]) {
        #expect(throws: (any Error).self) { try PurchaseSLICommand.parseAsRoot(arguments) }
    }

    /// Cells that a spreadsheet would run as formulas are neutralised; controls never reach the file.
    @Test(arguments: [
        ("=HYPERLINK(\"https://evil.example\",\"x\")", "\"'=HYPERLINK(\"\"https://evil.example\"\",\"\"x\"\")\""),
        ("+1+cmd|' /C calc'!A0", "\"'+1+cmd|' /C calc'!A0\""), ("-2+3", "\"'-2+3\""), ("@SUM(A1:A2)", "\"'@SUM(A1:A2)\""),
        ("\tx", "\u{FFFD}x"), ("a\u{07}b\rc", "a\u{FFFD}b\u{FFFD}c"), ("coins_100", "coins_100"), ("4.12.0", "4.12.0"),
    ])
    func csvCellsCannotBeFormulasOrControls(value: String, cell: String) {
        #expect(QueryOutput.csvCell(value) == cell)
    }

    @Test func csvQuotesCellsAndTableStripsTerminalControls() {
        let query = CountQuery(fromSeconds: 0, toSeconds: 60, groupBy: [.productID])
        let rows = [CountRow(timeSeconds: nil, key: ["a,\"b\"\u{1B}[31m\u{202E}"], counts: OutcomeCounts(success: 1))]
        let output = QueryOutput(query: query, rows: rows)
        #expect(output.csv.contains("\"a,\"\"b\"\"\u{FFFD}[31m\u{FFFD}\""))
        #expect(!output.table().contains("\u{1B}") && !output.table().contains("\u{202E}"))
    }
}
