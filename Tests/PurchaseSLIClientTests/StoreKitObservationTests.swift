import Foundation
import PurchaseSLICore
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLIClient

/// The StoreKit 2 observer's recording, fed StoreKit-shaped transactions as `Transaction.updates`,
/// `Transaction.unfinished` and `PurchaseIntent` deliver them; what it queued is read back through the
/// service's validator.
@Suite("StoreKit observed: Transaction.updates, Transaction.unfinished, PurchaseIntent")
struct StoreKitObservationTests {
    let directory: TemporaryDirectory
    let sli: PurchaseSLI
    let store = FakeStore()

    init() throws {
        directory = try TemporaryDirectory()
        sli = try makeClient(endpoint: URL(string: "http://127.0.0.1:9")!, directory: URL(fileURLWithPath: directory.file("queue")))
    }

    @Test("updates: Ask to Buy approved, a renewal, a family member's purchase, each an `update` attempt granted and finished")
    func updatesAreRecordedAndFinished() async throws {
        let token = UUID()
        var approved = StoreTransaction(id: 2_000_000_101, productID: "coins_500", purchaseDate: Date(), appAccountToken: token, reason: .purchase)
        (approved.price, approved.currency) = (Decimal(string: "4.99"), "USD")
        var renewal = StoreTransaction(id: 2_000_000_102, productID: "premium.monthly", purchaseDate: Date(), reason: .renewal)
        renewal.subscriptionGroupID = "21430001"
        var shared = StoreTransaction(id: 2_000_000_103, productID: "premium.family", purchaseDate: Date(), reason: .purchase)
        (shared.isFamilyShared, shared.offerID) = (true, "WINTER-CODE")
        store.answers = [2_000_000_101: .status(200), 2_000_000_102: .status(409), 2_000_000_103: .status(201)]
        let pass = await TransactionRecorder(sli: sli).handleAll(store.deliveries([approved, renewal, shared]), from: .updates)
        #expect(pass == TransactionPass(granted: 3, notGranted: 0, skipped: 0))
        #expect(store.finished == [2_000_000_101, 2_000_000_102, 2_000_000_103])

        let events = try await queuedEvents(sli)
        #expect(events.map(\.actionType.rawValue) == Array(repeating: "update", count: 6))
        #expect(events.map(\.resultType) == [.start, .success, .start, .alreadyGranted, .start, .success])
        // Every event names the transaction (the ledger's join), the approval its appAccountToken and price.
        #expect(events.map(\.transactionID) == ["2000000101", "2000000101", "2000000102", "2000000102", "2000000103", "2000000103"])
        #expect(events[1].appAccountToken == token.uuidString.lowercased() && events[1].price == 4.99 && events[1].currency == "USD")
        #expect(events[3].statusCode == 409 && events[3].groupID == "21430001")
        #expect(events[5].offerID == "WINTER-CODE")
        #expect(events[3].resultDescription?.hasPrefix("a renewal") == true)
        #expect(events[5].resultDescription?.contains("family member") == true)
    }

    @Test("updates: a transaction the purchase call is handling is left to it; revoked and unverified ones are not granted")
    func updatesSkipWhatIsNotTheirs() async throws {
        let token = UUID()
        let attempt = sli.begin(.purchase, productID: "coins_100", appAccountToken: token)
        let inCall = StoreTransaction(id: 11, productID: "coins_100", purchaseDate: Date(), appAccountToken: token, reason: .purchase)
        var refunded = StoreTransaction(id: 12, productID: "coins_100", purchaseDate: Date(), reason: .purchase)
        refunded.revocationDate = Date()
        var forged = StoreTransaction(id: 13, productID: "coins_1000", purchaseDate: Date(), reason: .purchase)
        forged.isVerified = false
        store.answers = [11: .status(200), 12: .status(200), 13: .status(200)]
        let recorder = TransactionRecorder(sli: sli)
        #expect(await recorder.handle(store.delivery(inCall), from: .updates) == .inPurchaseCall)
        #expect(await recorder.handle(store.delivery(refunded), from: .updates) == .revoked)
        let unverified = await recorder.handle(store.delivery(forged), from: .updates)
        #expect(unverified == .recorded(.failure(error: "StoreKit: the transaction's signature did not verify"), finished: false))
        #expect(store.granted.isEmpty && store.finished.isEmpty && store.revoked == [12])
        // Once the purchase call finished, a later delivery of its transaction is the observer's.
        await attempt.finish(.success(transactionID: "11"))
        #expect(await recorder.handle(store.delivery(inCall), from: .updates) == .recorded(.success(transactionID: "11"), finished: true))

        let events = try await queuedEvents(sli)
        #expect(events.map(\.actionType.rawValue) == ["purchase", "update", "update", "purchase", "update", "update"])
        #expect(events.map(\.resultType) == [.start, .start, .failure, .success, .start, .success])
    }

    @Test("unfinished at launch: every renewal of the pile is sent, not only the first; the ones not granted are retried next time")
    func unfinishedRenewalsAreAllRetried() async throws {
        let pile = (1...5).map { StoreTransaction(id: UInt64(300 + $0), productID: "premium.monthly", purchaseDate: Date(), reason: .renewal) }
        store.answers = [
            301: .status(200), 302: .status(409), 303: .status(500, description: "db down"), 304: .status(200), 305: .noResponse(error: "timed out"),
        ]
        let recorder = TransactionRecorder(sli: sli)
        let launch = await recorder.handleAll(store.deliveries(pile), from: .unfinished)
        #expect(launch == TransactionPass(granted: 3, notGranted: 2, skipped: 0))
        #expect(store.finished == [301, 302, 304])

        // Back in the foreground: what is still unfinished is sent again, and what was finished is not recorded twice.
        store.answers = [303: .status(200), 305: .status(409)]
        let foreground = await recorder.handleAll(store.deliveries([pile[2], pile[4], pile[0]]), from: .unfinished)
        #expect(foreground == TransactionPass(granted: 2, notGranted: 0, skipped: 1))
        #expect(store.finished == [301, 302, 304, 303, 305])

        let events = try await queuedEvents(sli)
        #expect(Set(events.map(\.actionType.rawValue)) == ["retry"])
        let terminal = events.filter { $0.resultType != .start }
        #expect(terminal.map(\.resultType) == [.success, .alreadyGranted, .failure, .success, .failure, .success, .alreadyGranted])
        #expect(terminal[2].statusCode == 500 && terminal[2].errorDescription == "db down" && terminal[4].statusCode == 0)
        #expect(terminal.map(\.transactionID) == ["301", "302", "303", "304", "305", "303", "305"])
    }

    @Test("one transaction delivered by updates and unfinished at once is recorded once")
    func aTransactionDeliveredTwiceCountsOnce() async throws {
        let renewal = StoreTransaction(id: 400, productID: "premium.monthly", purchaseDate: Date(), reason: .renewal)
        store.answers = [400: .status(200)]
        store.grantDelay = .milliseconds(50)
        let recorder = TransactionRecorder(sli: sli)
        async let fromUpdates = recorder.handle(store.delivery(renewal), from: .updates)
        async let fromUnfinished = recorder.handle(store.delivery(renewal), from: .unfinished)
        let handlings = await [fromUpdates, fromUnfinished]
        #expect(handlings.filter { $0 == .alreadyHandled }.count == 1)
        #expect(store.granted == [400] && store.finished == [400])
        #expect(try await queuedEvents(sli).count == 2)
    }

    @Test(
        "PurchaseIntent: a purchase started on the App Store, its outcome recorded with its appAccountToken; pending is pending",
        arguments: [
            (IntentCase.approved, SLIOutcome.success(transactionID: "500"), true),
            (.askToBuy, .pending, false),
            (.cancelled, .cancel, false),
            (.offline, .failure(error: "StoreKitError.networkError (URLError -1009)", statusCode: 0), false),
            (.grantFails, .failure(error: "the grant server answered 503", statusCode: 503), false),
        ])
    func purchaseIntents(intent: IntentCase, expected: SLIOutcome, finished: Bool) async throws {
        let token = UUID()
        let bought = StoreTransaction(id: 500, productID: "premium.yearly", purchaseDate: Date(), appAccountToken: token, reason: .purchase)
        store.answers = [500: intent == .grantFails ? .status(503) : .status(200)]
        let recorder = TransactionRecorder(sli: sli)
        let handling = await recorder.handleIntent(productID: "premium.yearly", offerID: "winback-2026", appAccountToken: token) {
            // While StoreKit completes the purchase, Transaction.updates delivers it too: left to the intent's attempt.
            #expect(await recorder.handle(store.delivery(bought), from: .updates) == .inPurchaseCall)
            switch intent {
            case .approved, .grantFails: return .success(store.delivery(bought))
            case .askToBuy: return .pending
            case .cancelled: return .userCancelled
            case .offline: return .failed(.networkError(code: -1009))
            }
        }
        #expect(handling == .recorded(expected, finished: finished))
        #expect(store.finished == (finished ? [500] : []))

        let events = try await queuedEvents(sli)
        #expect(events.map(\.actionType.rawValue) == ["purchase", "purchase"])
        #expect(events.allSatisfy { $0.appAccountToken == token.uuidString.lowercased() && $0.offerID == "winback-2026" })
        #expect(events[1].resultType.rawValue == expected.resultType.rawValue)
        // The terminal event names the transaction whenever StoreKit made one, granted or not.
        #expect(events[1].transactionID == ([.approved, .grantFails].contains(intent) ? "500" : nil))
    }
}

/// The ways a purchase intent's purchase ends in ``StoreKitObservationTests/purchaseIntents(intent:expected:finished:)``.
enum IntentCase: Sendable, CustomTestStringConvertible {
    case approved, askToBuy, cancelled, offline, grantFails
    var testDescription: String { "\(self)" }
}

/// StoreKit and the app's grant server as the observer sees them: grant answers by transaction id, and
/// what was granted, finished and revoked, in order.
final class FakeStore: Sendable {
    private struct State {
        var answers: [UInt64: GrantAnswer] = [:]
        var grantDelay: Duration = .zero
        var granted: [UInt64] = []
        var finished: [UInt64] = []
        var revoked: [UInt64] = []
    }
    private let state = Locked(State())

    var answers: [UInt64: GrantAnswer] {
        get { state.withLock { $0.answers } }
        set { state.withLock { $0.answers = newValue } }
    }
    var grantDelay: Duration {
        get { state.withLock { $0.grantDelay } }
        set { state.withLock { $0.grantDelay = newValue } }
    }
    var granted: [UInt64] { state.withLock { $0.granted } }
    var finished: [UInt64] { state.withLock { $0.finished } }
    var revoked: [UInt64] { state.withLock { $0.revoked } }

    /// A delivery of `transaction` whose grant, finish and revocation this store notes.
    func delivery(_ transaction: StoreTransaction) -> DeliveredTransaction {
        let id = transaction.id
        return DeliveredTransaction(
            transaction,
            grant: { [state] in
                let (answer, delay) = state.withLock { state in
                    state.granted.append(id)
                    return (state.answers[id] ?? .noResponse(error: "no answer set"), state.grantDelay)
                }
                try? await Task.sleep(for: delay)
                return answer
            },
            finish: { [state] in state.withLock { $0.finished.append(id) } },
            revoked: { [state] in state.withLock { $0.revoked.append(id) } })
    }

    /// `transactions` delivered in order, as StoreKit's sequences do.
    func deliveries(_ transactions: [StoreTransaction]) -> AsyncStream<DeliveredTransaction> {
        AsyncStream { continuation in
            for transaction in transactions { continuation.yield(delivery(transaction)) }
            continuation.finish()
        }
    }
}

/// Every event `sli` queued, in order, read back through the service's validator.
func queuedEvents(_ sli: PurchaseSLI) async throws -> [PurchaseEvent] {
    await sli.queue.rotate()
    var events: [PurchaseEvent] = []
    for segment in await sli.queue.segments() {
        for var line in await sli.queue.lines(of: segment) {
            events.append(
                try line.withUTF8 { try EventValidator(nowMillis: wallClockMillis()).validate(record: UnsafeRawBufferPointer($0)).get().event })
        }
    }
    return events
}

/// Now, in milliseconds since the epoch.
private func wallClockMillis() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
