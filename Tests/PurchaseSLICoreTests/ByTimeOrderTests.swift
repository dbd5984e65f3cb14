import PurchaseSLICore
import Testing

/// The orders every store reads records in: by time, then ties broken the same way whichever store read them.
@Suite struct ByTimeOrderTests {
    /// Reports of one millisecond order by their key as its text reads ("appAccountToken …" before
    /// "transactionID …", then the id, byte for byte after the shared prefix), then product and outcome.
    @Test func reportsOfOneMillisecondOrderByKeyTextProductAndOutcome() {
        func report(
            _ key: ClientReport.Key, _ product: String = "coins_100", _ result: ResultType = .success, at millis: Int64 = 1_000
        )
            -> ClientReport
        {
            ClientReport(
                key: key, productID: product, planID: nil, actionType: "purchase", firstGrantMillis: nil, lastMillis: millis,
                lastResult: result, lastStatusCode: nil, lastErrorDescription: nil)
        }
        let reports = [
            report(.transactionID("2000000000000002")), report(.transactionID("2000000000000001"), "coins_500"),
            report(.appAccountToken("b-token")), report(.transactionID("2000000000000001"), "coins_100", .failure),
            report(.appAccountToken("a-token"), at: 2_000), report(.appAccountToken("A-token")), report(.transactionID("tx-é")),
            report(.transactionID("tx-e")), report(.transactionID("2000000000000001"), "coins_100", .cancel),
        ]
        let expected = reports.sorted { lhs, rhs in
            (lhs.lastMillis, lhs.key.text, lhs.productID, lhs.lastResult.rawValue)
                < (rhs.lastMillis, rhs.key.text, rhs.productID, rhs.lastResult.rawValue)
        }
        #expect(ClientReport.byTime(reports) == expected)
        #expect(ClientReport.byTime(expected) == expected)
        #expect(ClientReport.byTime(reports.reversed()) == expected)
    }
}
