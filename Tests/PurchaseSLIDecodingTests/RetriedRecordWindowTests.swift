import PurchaseSLICore
import PurchaseSLIDecoding
import Testing

@Suite("A record without eventID and time, retried within the window, takes its first receipt's time")
struct RetriedRecordWindowTests {
    private static func event(_ id: String, at millis: Int64) -> PurchaseEvent {
        PurchaseEvent(eventID: id, timestampMillis: millis, productID: "p", actionType: .purchase, resultType: .failure)
    }

    private static let computed = "purchase-sli:sha256:00000000000000000000000000000001"

    @Test("a retry inside the window gets the first time (in the same batch too); past the window, its own; a sender's id never")
    func window() {
        var window = RetriedRecordWindow(windowMillis: 60_000)
        var first = [Self.event(Self.computed, at: 1_000), Self.event(Self.computed, at: 1_400), Self.event("own", at: 1_000)]
        window.settle(&first, receivedMillis: 1_000)
        #expect(first.map(\.timestampMillis) == [1_000, 1_000, 1_000])
        var retry = [Self.event(Self.computed, at: 59_000), Self.event("own", at: 59_000)]
        window.settle(&retry, receivedMillis: 59_000)
        #expect(retry.map(\.timestampMillis) == [1_000, 59_000])
        var late = [Self.event(Self.computed, at: 61_500)]
        window.settle(&late, receivedMillis: 61_500)
        #expect(late.map(\.timestampMillis) == [61_500])
        #expect(window.count == 1)
    }

    @Test("past its capacity the oldest records are forgotten first")
    func capacity() {
        var window = RetriedRecordWindow(windowMillis: 60_000, capacity: 2)
        var events = (1...3).map { Self.event(Self.computed + "\($0)", at: Int64($0) * 1_000) }
        window.settle(&events, receivedMillis: 3_000)
        #expect(window.count == 2)
        var again = [3, 2, 1].map { Self.event(Self.computed + "\($0)", at: 5_000) }
        window.settle(&again, receivedMillis: 5_000)
        #expect(again.map(\.timestampMillis) == [3_000, 2_000, 5_000])
    }
}
