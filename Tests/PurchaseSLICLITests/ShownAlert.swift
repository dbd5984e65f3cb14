import Foundation

/// One alert as a surface shows it, its markup taken off: severity label, name where the surface gives
/// it, the summary and the detail lines (since, incident, numbers, look next) in plain text.
struct ShownAlert: Hashable, CustomStringConvertible {
    var label: String
    var summary: String
    var lines: [String]

    var description: String { "\(label) \(summary)\n    " + lines.joined(separator: "\n    ") }

    /// The detail line that starts with `prefix` ("since ", "incident "), or nil.
    func line(_ prefix: String) -> String? { lines.first { $0.hasPrefix(prefix) } }

    /// The same alert without its look-next line and references (what differs with the database path or
    /// base URL a surface was given).
    var withoutLinks: ShownAlert {
        ShownAlert(
            label: label, summary: summary,
            lines: lines.filter {
                !$0.hasPrefix("look next:") && !$0.hasPrefix("owner:") && !$0.hasPrefix("runbook:") && !$0.hasPrefix("dashboard:")
            })
    }

    /// `alerts --format text`: blocks of "PAGE  summary" and six-space-indented lines.
    static func parse(text: String) -> [ShownAlert] {
        blocks(text).compactMap { lines in
            guard let (label, summary) = split(lines[0], after: ["PAGE  ", "TICKET  "]) else { return nil }
            return ShownAlert(label: label, summary: summary, lines: lines.dropFirst().map { String($0.dropFirst(6)) })
        }
    }

    /// `alerts --format markdown`: "**PAGE** summary" and "- " lines, Markdown's escapes undone.
    static func parse(markdown: String) -> [ShownAlert] {
        blocks(markdown).compactMap { lines in
            guard let (label, summary) = split(lines[0], after: ["**PAGE** ", "**TICKET** "]) else { return nil }
            func plain(_ line: String) -> String {
                line.replacingOccurrences(of: "`` ", with: "").replacingOccurrences(of: " ``", with: "")
                    .replacingOccurrences(of: #"\\([\\`*_{}\[\]()#+\-.!|<>~&"'])"#, with: "$1", options: .regularExpression)
            }
            return ShownAlert(label: label, summary: plain(summary), lines: lines.dropFirst().map { plain(String($0.dropFirst(2))) })
        }
    }

    /// `alerts --format slack` and a webhook attachment's text: "*PAGE* summary" and "• " lines, values out
    /// of their inline code, entities undone.
    static func parse(slack: String) -> [ShownAlert] {
        blocks(slack).compactMap { lines in
            guard let (label, summary) = split(lines[0], after: ["*PAGE* ", "*TICKET* "]) else { return nil }
            func plain(_ line: String) -> String {
                entitiesUndone(line.replacingOccurrences(of: "```", with: "").replacingOccurrences(of: "`", with: ""))
            }
            return ShownAlert(label: label, summary: plain(summary), lines: lines.dropFirst().map { plain(String($0.dropFirst(2))) })
        }
    }

    /// An Alertmanager v2 array: severity label, summary and description annotations.
    static func parse(alertmanager: String) throws -> [ShownAlert] {
        let alerts = try JSONSerialization.jsonObject(with: Data(alertmanager.utf8)) as? [[String: Any]] ?? []
        return alerts.map { alert in
            let labels = alert["labels"] as? [String: String] ?? [:]
            let annotations = alert["annotations"] as? [String: String] ?? [:]
            return ShownAlert(
                label: (labels["severity"] ?? "").uppercased(), summary: annotations["summary"] ?? "",
                lines: (annotations["description"] ?? "").components(separatedBy: "\n"))
        }
    }

    /// The alert cards of a page: `<div class="alert SEVERITY" id="…"><p>badge <strong>KIND</strong> summary</p><ul><li>…`.
    static func parse(html: String) -> [ShownAlert] {
        let card =
            #/<div class="alert (?<severity>page|ticket)" id="[^"]+"><p><span class="status [a-z]+">(?<label>[A-Z]+)</span> <strong>[A-Za-z]+</strong> (?<summary>.*?)</p><ul>(?<items>.*?)</ul></div>/#
        return html.matches(of: card).map { match in
            let items = String(match.output.items).components(separatedBy: "</li>").filter { !$0.isEmpty }
            return ShownAlert(
                label: String(match.output.label), summary: htmlText(String(match.output.summary)),
                lines: items.map { htmlText(String($0.dropFirst("<li>".count))) })
        }
    }

    /// Text of HTML: tags dropped, character references undone.
    static func htmlText(_ html: String) -> String {
        entitiesUndone(html.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression))
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
    }

    private static func entitiesUndone(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    private static func blocks(_ text: String) -> [[String]] {
        text.components(separatedBy: "\n\n").map { $0.components(separatedBy: "\n").filter { !$0.isEmpty } }.filter { !$0.isEmpty }
    }

    /// ("PAGE", "rest") when `line` starts with one of `prefixes`, whose letters are the label.
    private static func split(_ line: String, after prefixes: [String]) -> (String, String)? {
        prefixes.first { line.hasPrefix($0) }.map { prefix in
            (prefix.filter { $0.isLetter }, String(line.dropFirst(prefix.count)))
        }
    }
}
