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
        actionRows: [
            CountRow(timeSeconds: nil, key: [version, "purchase"], counts: counts.0),
            CountRow(timeSeconds: nil, key: ["4.11.0", "purchase"], counts: counts.1),
        ],
        sliceRows: [
            .planID: [
                CountRow(timeSeconds: nil, key: [version, "purchase", plan], counts: counts.0),
                CountRow(timeSeconds: nil, key: ["4.11.0", "purchase", plan], counts: counts.1),
            ]
        ])
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
        // No variant data: no flag to name, the phased release to pause.
        #expect(output.contains("Pause its phased release in App Store Connect") && !output.contains("feature flag"))
    }

    /// The flag is named only when a variant explains the regression; variants that fare alike are said
    /// not to, and the advice is the phased release alone.
    @Test(arguments: [
        (VariantRate?.none, "Pause its phased release", ["feature flag"]),
        (
            VariantRate(
                variant: "storekit2", metric: .successRate, actionType: "purchase", rate: 0.962, trials: 2_400, othersRate: 0.997,
                othersTrials: 600, isSignificantlyWorse: true),
            "Turn the feature flag of variant storekit2 (purchase success rate 96.2 % of 2,400 there, 99.7 % of 600 on the other variants) off",
            ["no feature flag explains it"]
        ),
        (
            VariantRate(
                variant: "storekit2", metric: .successRate, actionType: "purchase", rate: 0.984, trials: 1_619, othersRate: 0.987,
                othersTrials: 78, isSignificantlyWorse: false),
            "Pause its phased release in App Store Connect; resume with a fixed build (no feature flag explains it: its variants fare alike",
            ["Turn the feature flag"]
        ),
        (
            VariantRate(
                variant: "storekit2", metric: .successRate, actionType: "purchase", rate: 0.962, trials: 2_400, othersRate: nil,
                othersTrials: 0, isSignificantlyWorse: false),
            "Turn the feature flag of variant storekit2 (all of 5.0.0's events carry it", ["fare alike"]
        ),
    ])
    func theFlagIsNamedOnlyWhenAVariantExplainsIt(suspect: VariantRate?, says: String, neverSays: [String]) {
        var report = rollback(version: "5.0.0", plan: "monthly")
        report.suspectVariant = suspect
        let output = RolloutOutput.text(report)
        #expect(output.contains(says), "\(output)")
        for words in neverSays { #expect(!output.contains(words), "\(output)") }
    }

    @Test(arguments: hostile)
    func markdownCannotLinkOrFormat(text: String) {
        let output = RolloutOutput.markdown(rollback(version: "5.0.0", plan: text))
        #expect(!output.contains("](https://") && !output.contains("<script>") && !output.contains("**bold**"))
        #expect(output.hasPrefix("**ROLL BACK 5\\.0\\.0:"))
        // One table row per shown comparison: the pipe in the plan cannot add a column.
        for row in output.split(separator: "\n") where row.hasPrefix("| success rate") {
            let pipes = row.unicodeScalars.filter { $0 == "|" }.count
            let escaped = zip(row.unicodeScalars, row.unicodeScalars.dropFirst()).filter { $0 == "\\" && $1 == "|" }.count
            #expect(pipes - escaped == 7, "\(row)")
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

    /// The verdict's history: one row per run of checks that said the same at the same step, newest
    /// first, each with the reason of its first check.
    @Test func theHistoryFoldsRunsOfTheSameVerdict() throws {
        var report = rollback(version: "4.12.0", plan: "pro-monthly")
        let start: Int64 = 1_794_618_000
        let verdicts: [(RolloutReport.Verdict, Int)] = [
            (.insufficientData, 1), (.insufficientData, 1), (.rollback, 1), (.rollback, 1), (.rollback, 2),
        ]
        report.checks = verdicts.enumerated().map { hour, check in
            RolloutCheck(timeSeconds: start + Int64(hour) * 3600, step: check.1, verdict: check.0, reason: report.reasons.first)
        }
        let html = RolloutOutput.historyHTML(report).markup
        #expect(html.contains("The verdict over the release: 5 hourly checks"))
        let rows = html.components(separatedBy: "<tr>").dropFirst(2).map { $0 }
        #expect(rows.count == 3, "\(html)")
        #expect(rows[0].contains("2026-11-14 04:00 to 11-14 05:00") && rows[0].contains("2 %") && rows[0].contains(">rollback<"))
        #expect(rows[1].contains("2026-11-14 02:00 to 11-14 04:00") && rows[1].contains("1 %") && rows[1].contains(">rollback<"))
        #expect(rows[2].contains("2026-11-14 00:00 to 11-14 02:00") && rows[2].contains(">insufficient-data<"))
        #expect(rows[0].contains("success rate of purchase"))
    }
}
