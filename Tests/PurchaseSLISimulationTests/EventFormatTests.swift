import PurchaseSLICore
import PurchaseSLISimulation
import Testing

@Suite struct EventFormatTests {
    /// 2100-01-01: every simulated timestamp is in its past.
    private let validator = EventValidator(nowMillis: 4_102_444_800_000)

    @Test(arguments: Scenario.allCases)
    func everyEventValidatesAndRoundTrips(scenario: Scenario) {
        let parameters = Fixtures.parameters(scenario, rate: 0.35, seed: 21)
        var count = 0
        var problems: [String] = []
        for event in TrafficSimulator(parameters) {
            count += 1
            var line = event.jsonLine
            switch line.withUTF8({ validator.validate(record: UnsafeRawBufferPointer($0)) }) {
            case .success(let parsed) where parsed.event == event && parsed.warnings.isEmpty: break
            case .success: problems.append("changed by a round trip: \(line)")
            case .failure(let error): problems.append("\(error) in \(line)")
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(3))")
        #expect(count > 800)
    }

    @Test func eventIDsAreLowercaseVersion4UUIDs() {
        let bad = Fixtures.steady.events.prefix(3000).filter { !isVersion4UUID($0.eventID) }
        #expect(bad.isEmpty, "\(bad.prefix(3).map(\.eventID))")
    }

    @Test func eventIDsAreUniqueExceptExactDuplicates() {
        var byID: [String: PurchaseEvent] = [:]
        var differing: [String] = []
        for event in Fixtures.steady.events {
            if let earlier = byID.updateValue(event, forKey: event.eventID), earlier != event {
                differing.append(event.eventID)
            }
        }
        #expect(differing.isEmpty)
        #expect(byID.count == Fixtures.steady.unique.count)
    }

    @Test func stepsCarryTheRightFields() {
        let problems = Fixtures.steady.unique.filter { !hasTheRightFields($0) }
        #expect(problems.isEmpty, "\(problems.prefix(3).map(\.jsonLine))")
    }

    @Test func catalogIsConsistent() {
        let plans = [
            "coins_100": "coins-small", "coins_500": "coins-medium", "coins_1200": "coins-large",
            "premium_monthly": "pro-monthly", "premium_yearly": "pro-yearly",
        ]
        let known: Set<ActionType> = [.purchase, .restore, .retry]
        let problems = Fixtures.steady.unique.filter { event in
            plans[event.productID] != event.planID
                || event.groupID != (event.productID.hasPrefix("premium") ? "premium" : nil)
                || !known.contains(event.actionType)
                || (event.actionType == .restore && (event.groupID != "premium" || event.offerID != nil))
        }
        #expect(problems.isEmpty, "\(problems.prefix(3).map(\.jsonLine))")
    }

    @Test func dimensionsHaveRealisticVariety() {
        let events = Fixtures.steady.unique.prefix(20_000)
        func values(_ field: KeyPath<PurchaseEvent, String?>) -> Set<String> { Set(events.compactMap { $0[keyPath: field] }) }
        #expect(Set(events.map(\.productID)).count == 5)
        #expect(values(\.offerID) == ["intro-7d", "winback-50", "promo-spring"])
        #expect(values(\.platform) == ["iOS", "iPadOS", "macOS"])
        #expect(values(\.osVersion).isSuperset(of: ["17.5", "18.1", "18.2", "26.0"]))
        #expect(values(\.appVersion) == ["4.10.2", "4.11.0"])
        #expect(values(\.variant) == ["storekit1", "storekit2"])
        let iOS = events.count { $0.platform == "iOS" }
        #expect(Double(iOS) / Double(events.count) > 0.85)
        let majority = events.count { $0.appVersion == "4.11.0" }
        #expect(Double(majority) / Double(events.count) > 0.85)
        let errors = Set(events.compactMap(\.errorDescription))
        #expect(
            errors.isSuperset(of: [
                "SKErrorDomain Code=2", "verification failed: 503 upstream timeout", "receipt missing",
                "payment cancelled",
            ]))
    }

    private func isVersion4UUID(_ id: String) -> Bool {
        let parts = id.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.map(\.count) == [8, 4, 4, 4, 12],
            parts.allSatisfy({ $0.allSatisfy { "0123456789abcdef".contains($0) } })
        else { return false }
        return parts[2].first == "4" && "89ab".contains(parts[3].first!)
    }

    private func hasTheRightFields(_ event: PurchaseEvent) -> Bool {
        let fieldsOK: Bool
        switch event.resultType {
        case .start:
            fieldsOK = event.durationMs == nil && event.transactionID == nil && event.statusCode == nil
        case .success:
            fieldsOK = event.statusCode == 200 && event.transactionID != nil && event.responseDescription != nil
        case .alreadyGranted:
            fieldsOK = event.statusCode == 409 && event.transactionID != nil && event.actionType == .retry
        case .failure:
            fieldsOK = event.errorDescription != nil && (event.statusCode.map { (400...599).contains($0) } ?? true)
        case .cancel:
            fieldsOK = event.errorDescription == "payment cancelled" && event.statusCode == nil
        case .pending:
            fieldsOK = event.statusCode == nil && event.actionType == .purchase
        }
        return fieldsOK && (!event.resultType.isTerminal || (30...60_000).contains(event.durationMs ?? -1))
    }
}
