import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// An episode of `kind` on `labels` from minute `start` to minute `end` (nil: still firing).
private func episode(
    _ kind: AlertFinding.Kind, _ labels: SeriesLabels, from start: Int64, to end: Int64?, severity: Severity = .page
) -> AlertEpisode {
    let finding = AlertFinding(
        kind: kind, severity: severity, labels: labels, time: start * 60,
        evidence: SilenceEvidence(windowSeconds: 1800, expectedEvents: 30, silentSince: start * 60))
    return AlertEpisode(first: finding, startsAt: start * 60, endsAt: end.map { $0 * 60 })
}

private let purchase = SeriesLabels(actionType: "purchase")
private let restore = SeriesLabels(actionType: "restore")
private let version = SeriesLabels(actionType: "purchase", slice: .init(dimension: .appVersion, value: "4.12.0"))
private let product = SeriesLabels(actionType: "purchase", slice: .init(dimension: .productID, value: "coins_500"))
private let charges = SeriesLabels(actionType: "purchase", store: "apple", slice: .init(dimension: .productID, value: "coins_500"))
private let otherProduct = SeriesLabels(actionType: "purchase", slice: .init(dimension: .productID, value: "coins_100"))

@Suite("Incidents: alerts that share a cause and overlap in time are one")
struct IncidentGroupingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let episodes: [AlertEpisode]
        /// The incidents expected, each the indexes of its episodes.
        let expected: [[Int]]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "an outage pages purchase and restore: one incident",
            episodes: [episode(.successRateBurn, purchase, from: 0, to: 60), episode(.successRateBurn, restore, from: 13, to: 116)],
            expected: [[0, 1]]),
        Case(
            name: "a 409 flood that goes quiet for a night lull of 1 h 24 min is one incident; 4 h later is another",
            episodes: [
                episode(.alreadyGrantedSpike, version, from: 0, to: 100, severity: .ticket),
                episode(.alreadyGrantedSpike, version, from: 184, to: 300, severity: .ticket),
                episode(.alreadyGrantedSpike, version, from: 540, to: 600, severity: .ticket),
            ],
            expected: [[0, 1], [2]]),
        Case(
            name: "a cancel spike and the charges its detour left ungranted: one incident",
            episodes: [
                episode(.chargedNotGranted, charges, from: 0, to: nil), episode(.cancelRateSpike, product, from: 90, to: 184, severity: .ticket),
            ],
            expected: [[0, 1]]),
        Case(
            name: "a cancel spike of another product at the same time is another incident",
            episodes: [
                episode(.chargedNotGranted, charges, from: 0, to: nil), episode(.cancelRateSpike, otherProduct, from: 90, to: 184, severity: .ticket),
            ],
            expected: [[0], [1]]),
        Case(
            name: "two outages apart in time are two incidents",
            episodes: [episode(.successRateBurn, purchase, from: 0, to: 60), episode(.successRateBurn, restore, from: 61, to: 100)],
            expected: [[0], [1]]),
        Case(
            name: "a silence of purchases while restores burn: one outage",
            episodes: [episode(.successRateBurn, restore, from: 0, to: 50), episode(.noEvents, purchase, from: 20, to: 80)],
            expected: [[0, 1]]),
    ]

    @Test("which alerts are one incident", arguments: cases)
    func grouping(_ testCase: Case) {
        let incidents = IncidentGrouping(rules: AlertRules.standard(for: .default)).incidents(of: testCase.episodes)
        let indexes = incidents.map { incident in
            incident.episodes.map { member in testCase.episodes.firstIndex { $0 == member }! }.sorted()
        }
        #expect(indexes == testCase.expected)
    }

    @Test("an incident's id is its first alert's start and a digest of it; its times, severity and first bad minute")
    func incidentFigures() throws {
        let episodes = [episode(.successRateBurn, purchase, from: 10, to: 70), episode(.noEvents, restore, from: 5, to: nil, severity: .ticket)]
        let incident = try #require(IncidentGrouping(rules: AlertRules.standard(for: .default)).incidents(of: episodes).first)
        #expect(incident.id.hasPrefix("19700101-0005-") && incident.id.count == 20, "\(incident.id)")
        #expect(incident.startsAt == 300 && incident.endsAt == nil)
        #expect(incident.peakSeverity == .page && incident.severity == .ticket, "the page is over; the silence, a ticket here, goes on")
        #expect(incident.firstBadSeconds == 300)
        let again = IncidentGrouping(rules: AlertRules.standard(for: .default)).incidents(of: episodes.reversed())
        #expect(again.map(\.id) == [incident.id])
    }
}
