import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// What ``MakeWholeDeliveryRepository`` does on each backend, with the same deliveries and expectations.
@Suite("Make-whole delivery contract: one per store and transaction, the latest kept, read by transaction")
struct MakeWholeDeliveryContractTests {
    @Test("make-whole deliveries: kept per store and transaction, the latest replacing the one before, read by transaction", arguments: Backend.all)
    func makeWholeDeliveriesKept(_ backend: Backend) async throws {
        let store = MakeWholeDeliveryRepository(try await backend.store().sql)
        func delivery(_ store: Store, _ id: String, _ outcome: MakeWholeDelivery.Outcome, status: Int, attempts: Int) -> MakeWholeDelivery {
            MakeWholeDelivery(
                store: store, transactionID: id, outcome: outcome, status: status, detail: "answer \(status) é", attempts: attempts,
                lastAttemptMillis: 1_795_176_000_000 + Int64(attempts))
        }
        try await store.record([
            delivery(.apple, "2000000000000001", .failed, status: 503, attempts: 4),
            delivery(.google, "2000000000000001", .delivered, status: 201, attempts: 1),
            delivery(.apple, "2000000000000002", .refused, status: 422, attempts: 1),
        ])
        try await store.record([delivery(.apple, "2000000000000001", .delivered, status: 201, attempts: 5)])
        try await store.record([MakeWholeDelivery]())
        #expect(
            try await store.deliveries(naming: ["2000000000000001", "2000000000000009"]) == [
                delivery(.apple, "2000000000000001", .delivered, status: 201, attempts: 5),
                delivery(.google, "2000000000000001", .delivered, status: 201, attempts: 1),
            ])
        #expect(try await store.deliveries(naming: ["2000000000000002"]).map(\.outcome) == [.refused])
        #expect(try await store.deliveries(naming: []).isEmpty)
    }

    @Test("more deliveries than one statement holds are kept in one write, and read back by their transactions", arguments: Backend.all)
    func manyDeliveries(_ backend: Backend) async throws {
        let store = MakeWholeDeliveryRepository(try await backend.store().sql)
        let ids = (0..<1_234).map { "\(2_000_000_000_000_000 + $0)" }
        try await store.record(
            ids.map {
                MakeWholeDelivery(store: .apple, transactionID: $0, outcome: .delivered, status: 201, detail: "", attempts: 1, lastAttemptMillis: 1)
            })
        #expect(try await store.deliveries(naming: Set(ids)).map(\.transactionID) == ids)
        #expect(try await store.deliveries(naming: Set(ids.suffix(3) + ["1"])).map(\.transactionID) == Array(ids.suffix(3)))
    }
}
