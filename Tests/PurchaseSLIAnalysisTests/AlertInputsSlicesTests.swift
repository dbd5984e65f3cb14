import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// An action's slices of one dimension are found together, whatever characters their values hold: a
/// value starting with a combining mark sorts, as text, among another dimension's slices.
@Suite struct AlertInputsSlicesTests {
    @Test func theSlicesOfOneDimensionAreFoundTogether() {
        // "=" and U+0338 compose to "≠", which sorts after "appVersion=…" as text.
        let values: [(EventDimension, String)] = [(.app, "a"), (.app, "\u{338}x"), (.appVersion, "4.12.0"), (.app, "b"), (.planID, "p")]
        var sliceRows: [EventDimension: [CountRow]] = [:]
        for (dimension, value) in values {
            sliceRows[dimension, default: []].append(
                CountRow(timeSeconds: 0, key: ["purchase", value], counts: OutcomeCounts(start: 1)))
        }
        let inputs = AlertInputs(
            startSeconds: 0, endSeconds: 600, overall: [CountRow(timeSeconds: 0, key: ["purchase"], counts: OutcomeCounts(start: 5))],
            sliceRows: sliceRows)
        #expect(Set(inputs.slices(of: "purchase", dimension: .app).map { $0.labels.slice?.value }) == ["a", "\u{338}x", "b"])
        #expect(inputs.slices(of: "purchase", dimension: .appVersion).map { $0.labels.slice?.value } == ["4.12.0"])
        #expect(inputs.slices(of: "purchase", dimension: .planID).map { $0.labels.slice?.value } == ["p"])
        #expect(inputs.slices(of: "purchase", dimension: .productID).isEmpty && inputs.slices(of: "restore", dimension: .app).isEmpty)
        let restricted = inputs.restricted(from: 0, to: 600)
        #expect(restricted.slices(of: "purchase", dimension: .app).count == 3)
    }
}
