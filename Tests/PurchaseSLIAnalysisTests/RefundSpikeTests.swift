import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// 2026-11-10T00:00:00Z: the first hour of the activity.
private let origin: Int64 = 1_794_268_800

/// Hourly rows over 9 days: 40 coins_100 charges an hour, and refunds as `refunds(hour)` gives.
private func activity(refunds: (Int) -> Int64, environment: String = "Production") -> [StoreActivityRow] {
    (0..<(9 * 24)).flatMap { hour -> [StoreActivityRow] in
        let time = origin + Int64(hour) * 3600
        var rows = [
            StoreActivityRow(
                timeSeconds: time, store: .apple, environment: environment, appID: "com.example.app", productID: "coins_100", kind: .charge,
                type: "ONE_TIME_CHARGE",
                currency: "USD", count: 40, amount: 39.6)
        ]
        if refunds(hour) > 0 {
            rows.append(
                StoreActivityRow(
                    timeSeconds: time, store: .apple, environment: environment, appID: "com.example.app", productID: "coins_100", kind: .refund,
                    type: "REFUND",
                    currency: "USD", count: refunds(hour), amount: 0.99 * Double(refunds(hour))))
        }
        return rows
    }
}

/// The refund spikes at `hour` hours after the origin.
private func refundSpikes(_ rows: [StoreActivityRow], at hour: Int64, startHour: Int64 = 0) -> [AlertFinding] {
    var inputs = AlertInputs(startSeconds: origin, endSeconds: origin + 9 * 86_400, overall: [], sliceRows: [:])
    inputs.storeActivity = StoreActivitySeries(
        rows: rows, startSeconds: origin + startHour * 3600, endSeconds: origin + 9 * 86_400, environments: ["Production"])
    return AlertEvaluator(policy: .default).findings(at: origin + hour * 3600, inputs: inputs).filter { $0.kind == .refundSpike }
}

@Suite("RefundSpike: a product's refunds per charge against its own previous days")
struct RefundSpikeTests {
    /// One refund every 8 hours for 8 days, then 24 over the ninth day's first 12 hours.
    static let spiking = activity { hour in hour < 8 * 24 ? (hour % 8 == 0 ? 1 : 0) : (hour < 8 * 24 + 12 ? 2 : 0) }

    @Test("24 refunds in a day against 3 a day before tickets on the product, naming the store")
    func spikeTickets() throws {
        let finding = try #require(refundSpikes(Self.spiking, at: 8 * 24 + 12).first)
        #expect(finding.severity == .ticket)
        #expect(finding.labels == SeriesLabels(actionType: "purchase", store: "apple", slice: .init(dimension: .productID, value: "coins_100")))
        let spike = try #require(finding.evidence(as: RefundSpikeEvidence.self)?.spike)
        #expect(spike.observed == 24 + 1 && spike.exposure == 24 * 40)
        #expect(spike.baselineObserved == 7 * 3 && spike.baselineExposure == 7 * 24 * 40)
    }

    @Test("the same rate as the previous days raises nothing")
    func steadyRate() {
        #expect(refundSpikes(activity { $0 % 8 == 0 ? 1 : 0 }, at: 8 * 24 + 12).isEmpty)
    }

    @Test("nothing is tested until the activity covers every baseline day")
    func needsTheWholeBaseline() {
        #expect(refundSpikes(Self.spiking, at: 8 * 24 + 12, startHour: 24).isEmpty)
    }

    @Test("sandbox refunds are not reconciled by default")
    func sandboxIgnored() {
        let sandbox = activity(refunds: { hour in hour < 8 * 24 ? (hour % 8 == 0 ? 1 : 0) : 2 }, environment: "Sandbox")
        #expect(refundSpikes(sandbox, at: 8 * 24 + 12).isEmpty)
    }
}
