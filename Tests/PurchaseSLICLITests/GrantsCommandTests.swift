import Foundation
import PurchaseSLITestSupport
import Testing

/// `purchase-sli grants`, run as a person runs it: the grants of a range with the problem of each, in
/// each format, and its flags checked.
@Suite struct GrantsCommandTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// A purchase granted, then granted again by its retry (no price: the first grant's is given), another
    /// product granted under the same transaction, and a restore, which is no grant.
    private func database() async throws -> String {
        let events = [
            eventLine(
                "p1", at: "2026-11-14T09:30:00Z", extra: #","transactionID":"2000000000000001","platform":"iOS","price":0.99,"currency":"USD""#),
            #"{"eventID":"r1","timestamp":"2026-11-14T09:30:20Z","productID":"coins_100","actionType":"retry","resultType":"success","transactionID":"2000000000000001","platform":"iOS"}"#,
            eventLine("p2", at: "2026-11-14T09:31:00Z", product: "coins_500", extra: #","transactionID":"2000000000000001","platform":"iOS""#),
            #"{"eventID":"s1","timestamp":"2026-11-14T09:32:00Z","productID":"premium_monthly","actionType":"restore","resultType":"success","transactionID":"2000000000000002","platform":"iOS"}"#,
            eventLine(
                "p3", at: "2026-11-14T09:33:00Z", extra: #","transactionID":"2000000000000003","platform":"iOS","price":0.99,"currency":"USD""#),
        ]
        let file = directory.file("events.ndjson")
        try events.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let database = directory.file("grants.sqlite")
        #expect(try await run(["ingest", "--quiet", "--db", database, file]) == 0)
        return database
    }

    private func grants(_ database: String, _ extra: [String]) async throws -> (Int32?, String) {
        let executable = try #require(builtExecutable)
        let (termination, output) = try await ChildProcess.run(
            executable,
            ["grants", "--db", database, "--from", "2026-11-14T09:00:00Z", "--to", "2026-11-14T10:00:00Z", "--at", "2026-11-14T12:00:00Z"] + extra)
        if case .exit(let code) = termination { return (code, output) }
        return (nil, output)
    }

    @Test func listsEachGrantWithWhatIsWrong() async throws {
        let database = try await database()
        let (code, table) = try await grants(database, [])
        #expect(code == 0, "\(table)")
        // Without any store notification, "0 without a charge" rests on no charge data, and the table says so.
        #expect(table.hasSuffix("4 grants: 2 granted again, 0 without a charge\nNo store notifications for this period.\n"), "\(table)")
        #expect(
            table.contains("retry   ") && table.contains("0.99 USD  not notified  granted again (first 2026-11-14T09:30:00Z, event p1)"), "\(table)")
        #expect(table.contains("granted again (first 2026-11-14T09:30:00Z as coins_100, event p1)"), "\(table)")
        #expect(!table.contains("premium_monthly"), "a restore is no grant: \(table)")

        let (_, double) = try await grants(database, ["--double", "--format", "csv"])
        let lines = double.split(separator: "\n")
        #expect(
            lines.first
                == "grantedAt,store,transactionID,productID,eventID,actionType,appVersion,app,price,currency,chargedAt,grantedBefore,grantedBeforeEventID,withoutCharge"
        )
        #expect(lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[4] } == ["r1", "p2"], "\(double)")

        let (_, json) = try await grants(database, ["--transaction", "2000000000000003", "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(
            object?["eventID"] as? String == "p3" && object?["store"] as? String == "apple" && object?["withoutCharge"] as? Bool == false, "\(json)")
    }

    @Test func refusesBothProblemsAtOnceAndAnUnknownStore() async throws {
        let database = try await database()
        let (code, output) = try await grants(database, ["--double", "--uncharged"])
        #expect(code != 0 && output.contains("--double and --uncharged"), "\(output)")
        let (storeCode, storeOutput) = try await grants(database, ["--store", "amazon"])
        #expect(storeCode != 0 && storeOutput.contains("--store: expected apple or google"), "\(storeOutput)")
    }
}
