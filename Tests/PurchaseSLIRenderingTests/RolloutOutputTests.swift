import Foundation
import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIRendering
import Testing

/// A rollback of `version` because plan `plan` fails more.
private func rollback(version: String, plan: String) -> RolloutReport {
    let counts: (OutcomeCounts, OutcomeCounts) = (OutcomeCounts(success: 180, failure: 20), OutcomeCounts(success: 1990, failure: 10))
    let inputs = RolloutInputs(
        candidate: version, baseline: "4.11.0", fromSeconds: 1_794_614_400, toSeconds: 1_794_700_800,
        actionRows: [CountRow(timeSeconds: nil, key: [version, "purchase"], counts: counts.0),
                     CountRow(timeSeconds: nil, key: ["4.11.0", "purchase"], counts: counts.1)],
        sliceRows: [.planID: [CountRow(timeSeconds: nil, key: [version, "purchase", plan], counts: counts.0),
                              CountRow(timeSeconds: nil, key: ["4.11.0", "purchase", plan], counts: counts.1)]])
    return RolloutEvaluator(policy: .default).evaluate(inputs)
}

@Suite struct RolloutOutputTests {
    @Test(arguments: hostile)
    func textIsSafeAndSaysWhatToDo(text: String) {
        let output = RolloutOutput.text(rollback(version: text, plan: text))
        let bad = output.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
        }
        #expect(bad.isEmpty)
        #expect(output.hasPrefix("ROLL BACK "))
        #expect(output.contains("Turn the feature flag off"))
    }

    @Test(arguments: hostile)
    func markdownCannotLinkOrFormat(text: String) {
        let output = RolloutOutput.markdown(rollback(version: "5.0.0", plan: text))
        #expect(!output.contains("](https://") && !output.contains("<script>") && !output.contains("**bold**"))
        #expect(output.hasPrefix("**ROLL BACK 5\\.0\\.0:"))
        // One table row per shown comparison: the pipe in the plan cannot add a column.
        for row in output.split(separator: "\n") where row.hasPrefix("| success rate") {
            #expect(row.filter { $0 == "|" }.count - row.components(separatedBy: "\\|").count + 1 == 7, "\(row)")
        }
    }

    @Test(arguments: hostile)
    func jsonIsValidAndKeepsTheSliceAsIs(text: String) throws {
        let output = RolloutOutput.json(rollback(version: "5.0.0", plan: text))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(object["verdict"] as? String == "rollback")
        let comparisons = try #require(object["comparisons"] as? [[String: Any]])
        #expect(comparisons.contains { ($0["slice"] as? [String: String])?["planID"] == text })
        #expect((object["reasons"] as? [String])?.isEmpty == false)
    }
}
