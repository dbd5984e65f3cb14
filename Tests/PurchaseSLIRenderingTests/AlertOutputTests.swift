import Foundation
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLIAnalysis

/// Strings an attacker could put in event fields, aimed at each output.
let hostile = [
    "<!channel> <@U123> <https://evil.example|click>", "[click](https://evil.example) ![x](https://evil.example/x.png)",
    "**bold** _it_ `code` # heading | table", "\u{202E}gnp.exe\u{202C} \u{2066}x\u{2069}", "bell\u{07} esc\u{1B}[31m red\r\nnew line",
    "\"quotes\" \\ back\\slash </script><script>alert(1)</script>",
    "plan$(touch /tmp/purchase-sli-pwned)`id`; touch /tmp/purchase-sli-pwned && echo 'it''s' | cat",
    "a```b``c`d *bold* ~strike~ _it_ https://evil.example x.example.com",
    // A prepended mark (U+0600) before a special, or a combining one (U+0301) after it, makes one Character of the
    // two: escaping goes by Unicode scalar, so these are escaped as the plain ones are.
    "\u{0600}<!channel> \u{0600}<https://evil.example|click>\u{0301} \u{0600}<img src=x onerror=alert(1)>\u{0301} a |\u{0301} b",
    "'\u{0301}; touch /tmp/purchase-sli-pwned; '\u{0301} \u{0600}``\u{0600}`` $(touch /tmp/purchase-sli-pwned)",
]

private func report(_ text: String) -> AlertReport {
    let objective = SLOPolicy.Objective(actionType: "purchase", target: 0.99, window: .rolling(seconds: 28 * 86_400))
    let finding = AlertFinding(
        kind: .successRateBurn, severity: .page,
        labels: SeriesLabels(actionType: "purchase", slice: .init(dimension: .productID, value: text)),
        time: 1_794_650_400,
        evidence: BurnEvidence(
            objective: objective, rule: SLOPolicy.default.rules[0], threshold: 13.44, longWindow: OutcomeCounts(success: 800, failure: 200),
            shortWindow: OutcomeCounts(success: 50, failure: 50), shortWindowSeconds: 300, shareOfFailures: 0.8))
    return AlertReport(
        finding: finding, startsAt: 1_794_649_200, topErrors: [(description: text, events: 180)],
        concentration: [SliceShare(slice: .init(dimension: .planID, value: text), share: 0.9, trafficShare: 0.2)], budgetRemaining: 0.25)
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
        #expect(
            output.contains(
                "success rate 50.0 % over the last 5m against the 99.0 % objective (80.0 % over 1h), burning the error budget 50.0× over 5m and 20.0× over 1h (threshold 13.4×)"
            ), "\(output)")
    }

    @Test(arguments: hostile)
    func slackCannotMentionOrLink(text: String) {
        let output = AlertOutput.slack([report(text)], now: 1_794_650_400)
        #expect(!output.contains("<!channel>") && !output.contains("<@U123>") && !output.contains("<https://"))
        #expect(!output.contains("<script>"))
        #expect(!output.unicodeScalars.contains("<") && !output.unicodeScalars.contains(">"), "\(output)")
    }

    @Test(arguments: hostile)
    func markdownCannotLinkEmbedOrFormat(text: String) {
        let markdown = AlertOutput.markdown([report(text)], now: 1_794_650_400)
        // The command to run next is a code span (tested to run as printed); the rest is prose.
        let lines = markdown.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("- look next: `` purchase-sli query") && $0.hasSuffix(" ``") })
        let output = lines.filter { !$0.hasPrefix("- look next: ") }.joined(separator: "\n")
        #expect(!output.contains("](https://") && !output.contains("![x]") && !output.contains("<script>"))
        #expect(!output.contains("**bold**"))
        #expect(!hasUnescapedScalar(output.replacingOccurrences(of: "**PAGE**", with: ""), of: "<>[]|`"), "\(output)")
        #expect(output.hasPrefix("**PAGE** purchase, productID="))
    }

    @Test(arguments: hostile)
    func alertmanagerJSONIsValidAndLabelsTheSlice(text: String) throws {
        let output = AlertOutput.alertmanagerJSON([report(text)], now: 1_794_650_400)
        let alerts = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        #expect(alerts.count == 1)
        let labels = try #require(alerts[0]["labels"] as? [String: String])
        #expect(labels["alertname"] == "PurchaseSuccessRateBurn" && labels["severity"] == "page")
        #expect(labels["actionType"] == "purchase" && labels["productID"] == TerminalText.sanitized(text))
        #expect(!labels.values.joined().unicodeScalars.contains { $0.value < 0x20 || (0x202A...0x2069).contains($0.value) })
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

/// What alert text links to and names: the owner and runbook a policy gives, the dashboard page under a
/// base URL, and a "look next" command that runs as printed.
@Suite struct AlertReferencesTests {
    private func referenced() -> AlertReport {
        var alert = report("coins_100")
        alert.owner = "payments-oncall"
        alert.runbookURL = "https://runbooks.example.com/purchases#burn"
        alert.pageURL = "https://sli.example.com/oncall.html#\(alert.finding.identity.anchor)"
        alert.databasePath = "/srv/sli data/it's.sqlite"
        return alert
    }

    @Test func alertmanagerGetsTheTeamTheRunbookAndTheGeneratorURL() throws {
        let output = AlertOutput.alertmanagerJSON([referenced()], now: 1_794_650_400)
        let alert = try #require((try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])?.first)
        #expect((alert["labels"] as? [String: String])?["team"] == "payments-oncall")
        #expect((alert["annotations"] as? [String: String])?["runbook_url"] == "https://runbooks.example.com/purchases#burn")
        #expect((alert["generatorURL"] as? String)?.hasPrefix("https://sli.example.com/oncall.html#alert-PurchaseSuccessRateBurn-") == true)
        let plain = try #require(
            (try JSONSerialization.jsonObject(with: Data(AlertOutput.alertmanagerJSON([report("x")], now: 0).utf8))
                as? [[String: Any]])?.first)
        #expect(plain["generatorURL"] == nil && (plain["labels"] as? [String: String])?["team"] == nil)
    }

    @Test func theTextNamesTheOwnerRunbookAndPage() {
        let text = AlertOutput.text([referenced()], now: 1_794_650_400)
        #expect(
            text.contains(
                "owner: payments-oncall · runbook: https://runbooks.example.com/purchases#burn · dashboard: https://sli.example.com/oncall.html#alert-"
            ))
    }

    /// The database path and the slice value are quoted for a POSIX shell: run by `sh`, the words are
    /// exactly the options, whatever spaces or quotes they hold.
    @Test(
        arguments: hostile.filter { text in
            !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x2069).contains($0.value) }
        })
    func lookNextRunsAsPrintedInAShell(slice: String) async throws {
        var alert = referenced()
        alert.finding.labels = SeriesLabels(actionType: "purchase", slice: .init(dimension: .planID, value: slice))
        let line = try #require(AlertOutput.text([alert], now: 1_794_650_400).split(separator: "\n").first { $0.contains("look next: ") })
        let command = String(line.split(separator: "look next: ", maxSplits: 1)[1])
        let words = try await shellWords(command)
        #expect(words.prefix(4) == ["purchase-sli", "query", "--db", "/srv/sli data/it's.sqlite"])
        #expect(words.contains("planID=\(slice)"), "\(words)")
    }

    /// A database path that begins with `-` goes with its option as one word (`--db=-x`), or the
    /// command's parser would read it as an option of its own.
    @Test func lookNextKeepsAPathThatLooksLikeAnOption() async throws {
        var alert = referenced()
        alert.databasePath = "-data.sqlite"
        let line = try #require(AlertOutput.text([alert], now: 1_794_650_400).split(separator: "\n").first { $0.contains("look next: ") })
        let words = try await shellWords(String(line.split(separator: "look next: ", maxSplits: 1)[1]))
        #expect(words.prefix(3) == ["purchase-sli", "query", "--db=-data.sqlite"], "\(words)")
    }

    /// Every output prints the command as code that copies exactly: run by `sh`, the slice value comes
    /// through literally (no command substitution, no word splitting), whatever it holds.
    @Test(
        arguments: hostile.filter { text in
            !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x2069).contains($0.value) }
        })
    func everyOutputPrintsACommandThatPassesTheValueThroughLiterally(slice: String) async throws {
        var alert = referenced()
        alert.finding.labels = SeriesLabels(actionType: "purchase", slice: .init(dimension: .planID, value: slice))
        let now: Int64 = 1_794_650_400
        let markdown = try #require(AlertOutput.markdown([alert], now: now).split(separator: "\n").first { $0.hasPrefix("- look next: ") })
        let slack = try #require(AlertOutput.slack([alert], now: now).split(separator: "\n").first { $0.hasPrefix("• look next: ") })
        let html = "\(AlertOutput.html([alert], now: now))"
        let alertmanager = try #require(
            (try JSONSerialization.jsonObject(with: Data(AlertOutput.alertmanagerJSON([alert], now: now).utf8)) as? [[String: Any]])?.first)
        let description = try #require((alertmanager["annotations"] as? [String: String])?["description"])
        let commands = [
            // A Markdown code span: no escaping inside, delimited by two backticks the command never holds.
            String(try #require(markdown.split(separator: "`` ", maxSplits: 1).last).dropLast(3)),
            // A Slack code block: only the three entities Slack requires, shown by Slack as the characters.
            String(try #require(slack.split(separator: "```").dropFirst().first)).replacingScalarRuns([("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")]),
            try htmlText(try #require(html.split(separator: "<code>").last?.split(separator: "</code>").first)),
            String(try #require(description.split(separator: "\n").first { $0.hasPrefix("look next: ") }).dropFirst(11)),
        ]
        // The Markdown code span is closed only at its end: no value holds two backticks in a row.
        #expect(!hasTwoBackticks(markdown.dropFirst("- look next: ``".count).dropLast(2)), "\(markdown)")
        for command in commands {
            #expect(!hasTwoBackticks(command) && !command.unicodeScalars.contains("\u{200B}"), "\(command)")
            let words = try await shellWords(command)
            #expect(words.contains("planID=\(slice)"), "\(command) gave \(words)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/purchase-sli-pwned"))
    }

    /// Slack shows event text as it is, never as markup: each value is one inline code span (no bold,
    /// italics, strikes, links or mentions there), a backtick inside cannot end it, and no invisible
    /// character goes inside a value, so a version copied from Slack matches in `query --where`.
    @Test func slackShowsEventTextAsCode() {
        let text = AlertOutput.slack([report("a```b *bold* ~strike~ _it_ https://evil.example x.example.com")], now: 1_794_650_400)
        let summary = String(text.split(separator: "\n")[0])
        #expect(summary.contains("productID=`a\u{02CB}\u{02CB}\u{02CB}b *bold* ~strike~ _it_ https://evil.example x.example.com`:"), "\(summary)")
        #expect(summary.filter { $0 == "`" }.count == 2, "\(summary)")  // one value, the product: the action is a name of the tool
        #expect(!text.contains("\u{200B}"))
        let version = AlertOutput.slack([report("4.12.0")], now: 1_794_650_400)
        #expect(version.contains("productID=`4.12.0`") && !version.contains("\u{200B}"))
    }

    @Test func slackAttachmentsAreColouredBySeverity() throws {
        var ticket = report("coins_100")
        ticket.finding.severity = .ticket
        var resolved = report("coins_500")
        resolved.endsAt = 1_794_652_200
        let body = AlertOutput.slackWebhookJSON([report("x"), ticket, resolved], now: 1_794_652_200)
        let message = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        #expect(message["text"] as? String == "purchase-sli at 2026-11-14T10:30:00Z: 2 firing (1 page), 1 resolved")
        let colours = (message["attachments"] as? [[String: Any]] ?? []).map { $0["color"] as? String }
        #expect(colours == ["#e01e5a", "#ecb22e", "#2eb67d"])
    }
}

/// `text` of an HTML element with the character references ``HTML/escape(_:)`` writes turned back, Unicode scalar
/// by scalar (as a browser reads them; Foundation's `replacingOccurrences` misses `&#39;` before a combining mark).
private func htmlText(_ text: some StringProtocol) throws -> String {
    String(text).replacingScalarRuns([("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")])
}

/// The words `sh` makes of `command` (printed NUL-separated by `printf`).
private func shellWords(_ command: String) async throws -> [String] {
    let (termination, output) = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "printf '%s\\0' " + command])
    #expect(termination == .exit(0), "sh -c printf \(command): \(output)")
    return output.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
}

/// Slack and Markdown set apart only values from the events: the product's own words and a currency code
/// read as plain text; a currency that is no ISO code is a value.
@Suite struct PlainWordsTests {
    @Test("a cost in Slack and Markdown: no code span around \"purchases\" or \"USD\"; one around a strange currency")
    func costWordsArePlain() {
        let lost = LostPurchases(purchases: 14, variance: 9, basis: .previousDays(7), worth: ["USD": 130.31], unpriced: 0, isPriced: true)
        for escaping in [TextEscaping.slack, .markdown] {
            let text = lost.summary(of: "purchase").rendered(escaping)
            #expect(
                text.hasPrefix("≈ 14 purchases (") && text.hasSuffix(" that would have succeeded, ≈ 130.31 USD") && !text.contains("`"), "\(text)")
        }
        // A custom action the events validated is a word too; anything else is a value, set apart.
        let custom = LostPurchases(purchases: 2, variance: 1, basis: .previousDays(7), worth: [:], unpriced: 0, isPriced: false)
        #expect(custom.summary(of: "gift").rendered(.slack).hasPrefix("≈ 2 gifts ("), "\(custom.summary(of: "gift").rendered(.slack))")
        #expect(custom.summary(of: "gi*ft").rendered(.slack).hasPrefix("≈ 2 `gi*fts` ("), "\(custom.summary(of: "gi*ft").rendered(.slack))")
        let strange: AlertText = "\(money: 1, currency: "U*SD")"
        #expect(strange.rendered(.slack).contains("`U*SD`"), "\(strange.rendered(.slack))")
    }
}
