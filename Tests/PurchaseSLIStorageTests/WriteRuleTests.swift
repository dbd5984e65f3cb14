import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// The write rules every backend's commit applies, alone: the caps' admissions and the dedup decision.
@Suite struct WriteRuleTests {
    typealias Slot = CapAdmission<String>.Slot

    @Test func aDayAdmitsTheFirstValuesUpToTheCapAndCountsTheRestAsOverflow() {
        var admission = CapAdmission<String>()
        let monday = Slot(day: 20_000, dimension: 1)
        let tuesday = Slot(day: 20_001, dimension: 1)
        let decisions = ["a", "b", "c", "a", "d", "b"].map { admission.admit($0, in: monday, cap: 2, load: { [] }) }
        #expect(decisions == [.admitNow, .admitNow, .overflow, .admitted, .overflow, .admitted])
        #expect(admission.admit("c", in: tuesday, cap: 2, load: { [] }) == .admitNow)
        #expect(admission.takeOverflow() == [monday: 2])
        #expect(admission.takeOverflow().isEmpty)
    }

    @Test func aSlotIsLoadedOnceOrPrimedWithItsCountAndTheMembersAskedAbout() {
        var admission = CapAdmission<String>()
        let slot = Slot(day: 20_000, dimension: 3)
        var loads = 0
        func load() -> Set<String> {
            loads += 1
            return ["stored"]
        }
        #expect(admission.admit("stored", in: slot, cap: 2, load: load) == .admitted)
        #expect(admission.admit("new", in: slot, cap: 2, load: load) == .admitNow)
        #expect(admission.admit("late", in: slot, cap: 2, load: load) == .overflow)
        #expect(loads == 1)
        // Primed as PostgreSQL does: the day has 5 admissions, of which only the one asked about is listed.
        admission.prime(slot, count: 5, members: ["asked"])
        #expect(admission.decide("asked", in: slot, cap: 6, load: { [] }) == .admitted)
        #expect(admission.decide(nil, in: slot, cap: 6, load: { [] }) == .admitNow)
        admission.record("sixth", in: slot)
        #expect(admission.decide(nil, in: slot, cap: 6, load: { [] }) == .overflow)
        admission.forget { $0 == slot.day }
        #expect(!admission.isKnown(slot))
    }

    @Test func ofTheEventsWithOneKeyTheFirstSentCountsUnlessStored() {
        func events(_ ids: [String]) -> PreparedEvents {
            PreparedEvents(ids.map { event($0, at: "2026-11-20T10:00:00Z") })
        }
        let order = DedupOrder([events(["a", "b", "a"]), events(["b", "c", "stored"])])
        #expect(order.distinctKeys().count == 4)
        let storedHash = EventIDHash.hash("stored")
        var asked: [Int64] = []
        let decision = order.decide { key in
            asked.append(key.hash)
            return key.hash == storedHash
        }
        #expect(decision.isNew == [[true, true, false], [false, true, false]])
        #expect(decision.duplicateIndexes == [2, 3, 5])
        #expect(decision.newKeys.count == 3 && asked.count == 4)
    }
}
