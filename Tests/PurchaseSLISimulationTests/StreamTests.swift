import PurchaseSLICore
import PurchaseSLISimulation
import Testing

@Suite struct StreamTests {
    private let run = Fixtures.steady

    @Test func oneDayAtRate30HasAPlausibleCount() {
        let attempts = run.unique.count(of: .start)
        #expect((41_000...45_500).contains(attempts), "\(attempts) attempts")  // 30 × 1440 = 43 200
        #expect((80_000...92_000).contains(run.events.count), "\(run.events.count) events")
    }

    @Test func attemptsStartInsideTheRun() {
        let range = run.parameters.startMillis..<run.parameters.endMillis
        #expect(run.events.allSatisfy { $0.resultType != .start || range.contains($0.timestampMillis) })
    }

    @Test func baselineRatesAreHealthy() {
        let events = run.unique
        let purchases = events.filter { $0.actionType == .purchase }
        #expect((0.989...0.997).contains(purchases.successRate), "\(purchases.successRate)")
        #expect((0.05...0.08).contains(purchases.cancelRate), "\(purchases.cancelRate)")
        let pending = Double(purchases.count(of: .pending)) / Double(purchases.count(of: .start))
        #expect((0.003...0.008).contains(pending), "\(pending)")
        #expect((0.015...0.06).contains(events.conflictsPerPurchase), "\(events.conflictsPerPurchase)")
        let retries = events.filter { $0.actionType == .retry }
        #expect(retries.count(of: .alreadyGranted) > 2 * retries.count(of: .success))
        #expect(retries.count(of: .success) > 0)
        let restores = events.count { $0.actionType == .restore && $0.resultType == .start }
        #expect(restores > 500)
        let unfinished = purchases.count(of: .start) - purchases.count { $0.resultType.isTerminal }
        #expect((1...200).contains(unfinished), "\(unfinished)")
    }

    @Test func trafficFollowsTheTimeOfDay() {
        var perHour = [Int](repeating: 0, count: 24)
        for event in run.unique where event.resultType == .start {
            perHour[Int(event.timestampMillis.floorDividedBy(86_400_000).remainder / Fixtures.hour)] += 1
        }
        let evening = perHour[19] + perHour[20]
        let night = perHour[3] + perHour[4]
        let ratio = Double(evening) / Double(night)
        #expect((3.0...5.0).contains(ratio), "\(perHour)")
        #expect(perHour.firstIndex(of: perHour.max()!)! >= 18)
    }

    @Test func weekdaysVaryMildly() {
        let week = Fixtures.parameters(.steady, days: 7, rate: 0.5, seed: 4)
        var perDay = [Int](repeating: 0, count: 7)
        for event in TrafficSimulator(week) where event.resultType == .start {
            perDay[Int((event.timestampMillis - week.startMillis) / 86_400_000)] += 1
        }
        let mean = Double(perDay.reduce(0, +)) / 7
        #expect(perDay.allSatisfy { abs(Double($0) / mean - 1) < 0.15 }, "\(perDay)")
    }

    @Test func duplicatesAreExactCopiesSoonAfter() {
        var firstSeen: [String: PurchaseEvent] = [:]
        var duplicates = 0
        var differing = 0
        var maximumDelay: Int64 = 0
        var newest: Int64 = 0
        for event in run.events {
            newest = max(newest, event.timestampMillis)
            if let earlier = firstSeen[event.eventID] {
                duplicates += 1
                if earlier != event { differing += 1 }
                maximumDelay = max(maximumDelay, newest - event.timestampMillis)
            } else {
                firstSeen[event.eventID] = event
            }
        }
        #expect(differing == 0)
        #expect(maximumDelay > 0)
        let share = Double(duplicates) / Double(run.events.count)
        #expect((0.0015...0.005).contains(share), "\(duplicates) duplicates")
    }

    @Test func someEventsArriveLate() {
        var newest = run.parameters.startMillis
        var late = 0
        var hoursLate = 0
        for event in run.unique {
            let lag = newest - event.timestampMillis
            if lag > 60_000 { late += 1 }
            if lag > Fixtures.hour { hoursLate += 1 }
            newest = max(newest, event.timestampMillis)
        }
        let share = Double(late) / Double(run.unique.count)
        #expect((0.005...0.02).contains(share), "\(late) late events")
        #expect(hoursLate > 20)
    }

    @Test func theStreamIsLazy() {
        // A century of traffic: only possible if the run is generated as it is read.
        let century = Fixtures.parameters(.steady, days: 36_500, rate: 200, seed: 1)
        #expect(Array(TrafficSimulator(century).prefix(1000)).count == 1000)
    }

    @Test func emptyRuns() {
        #expect(TrafficSimulator(Fixtures.parameters(.outage, days: 0, rate: 30, seed: 1)).first { _ in true } == nil)
        #expect(TrafficSimulator(Fixtures.parameters(.outage, days: 1, rate: 0, seed: 1)).first { _ in true } == nil)
        #expect(TrafficSimulator(Fixtures.parameters(.steady, days: 1, rate: -.infinity, seed: 1)).first { _ in true } == nil)
    }
}
