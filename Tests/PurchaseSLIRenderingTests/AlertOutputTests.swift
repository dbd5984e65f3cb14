import Foundation
import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIRendering
import Testing

/// Strings an attacker could put in event fields, aimed at each output.
let hostile = [
    "<!channel> <@U123> <https://evil.example|click>", "[click](https://evil.example) ![x](https://evil.example/x.png)",
    "**bold** _it_ `code` # heading | table", "\u{202E}gnp.exe\u{202C} \u{2066}x\u{2069}", "bell\u{07} esc\u{1B}[31m red\r\nnew line",
    "\"quotes\" \\ back\\slash </script><script>alert(1)</script>",
]

private func report(_ text: String) -> AlertReport {
    let objective = SLOPolicy.Objective(actionType: "purchase", target: 0.99, window: .rolling(seconds: 28 * 86_400))
    let finding = AlertFinding(
        kind: .successRateBurn, severity: .page,
        labels: SeriesLabels(actionType: "purchase", slice: .init(dimension: .productID, value: text)),
        time: 1_794_650_400, objective: objective, rule: SLOPolicy.default.rules[0],
        longWindow: OutcomeCounts(success: 800, failure: 200), shortWindow: OutcomeCounts(success: 50, failure: 50),
        shareOfFailures: 0.8)
    return AlertReport(
        finding: finding, startsAt: 1_794_649_200, topErrors: [(description: text, events: 180)],
        concentration: [(slice: .init(dimension: .planID, value: text), share: 0.9)], budgetRemaining: 0.25)
}

@Suite struct AlertOutputTests {
    @Test(arguments: hostile)
    func terminalTextHasNoControlOrBidiCharacters(text: String) {
        let output = AlertOutput.text([report(text)], now: 1_794_650_400)
        let bad = output.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
                || (0x2066...0x2069).contains($0.value)
        }
        #expect(bad.isEmpty)
        #expect(output.hasPrefix("PAGE  purchase, productID="))
        #expect(output.contains("success rate 50.0 % over the last 5m against the 99.0 % objective (80.0 % over 1h), burning the error budget 50.0× over 5m and 20.0× over 1h (threshold 13.4×)"), "\(output)")
    }

    @Test(arguments: hostile)
    func slackCannotMentionOrLink(text: String) {
        let output = AlertOutput.slack([report(text)], now: 1_794_650_400)
        #expect(!output.contains("<!channel>") && !output.contains("<@U123>") && !output.contains("<https://"))
        #expect(!output.contains("<script>"))
    }

    @Test(arguments: hostile)
    func markdownCannotLinkEmbedOrFormat(text: String) {
        let output = AlertOutput.markdown([report(text)], now: 1_794_650_400)
        #expect(!output.contains("](https://") && !output.contains("![x]") && !output.contains("<script>"))
        #expect(!output.contains("**bold**"))
        #expect(output.hasPrefix("**PAGE** purchase, productID="))
    }

    @Test(arguments: hostile)
    func alertmanagerJSONIsValidAndLabelsTheSlice(text: String) throws {
        let output = AlertOutput.alertmanagerJSON([report(text)], now: 1_794_650_400)
        let alerts = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        #expect(alerts.count == 1)
        let labels = try #require(alerts[0]["labels"] as? [String: String])
        #expect(labels["alertname"] == "PurchaseSuccessRateBurn" && labels["severity"] == "page")
        #expect(labels["actionType"] == "purchase" && labels["productID"] != nil)
        #expect(alerts[0]["startsAt"] as? String == "2026-11-14T09:40:00Z" && alerts[0]["endsAt"] == nil)
        let annotations = try #require(alerts[0]["annotations"] as? [String: String])
        #expect(annotations["summary"]?.contains("80.0 % of all purchase failures") == true)
    }

    @Test func aResolvedEpisodeHasEndsAt() throws {
        var resolved = report("coins_100")
        resolved.endsAt = 1_794_652_200
        let output = AlertOutput.alertmanagerJSON([resolved], now: 1_794_652_200)
        #expect(output.contains(#""endsAt":"2026-11-14T10:30:00Z""#))
        #expect(AlertOutput.text([resolved], now: 1_794_652_200).hasPrefix("RESOLVED PAGE"))
    }
}
