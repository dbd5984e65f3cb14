import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension WeeklyReport {
    /// "Refunds we caused": the week's refunds by cause (charges never granted, granted after a failure,
    /// granted late) apart from the others, beside the week before, as table rows of text.
    var refundRows: [(cause: String, current: RefundTally.Entry, previous: RefundTally.Entry)] {
        RefundCause.allCases.compactMap { cause in
            let current = refunds.current.byCause[cause] ?? RefundTally.Entry()
            let previous = refunds.previous.byCause[cause] ?? RefundTally.Entry()
            return current.count + previous.count > 0 || cause.isOurs ? (cause.rawValue, current, previous) : nil
        }
    }

    /// "3 refunds we caused (14.97 USD) this week, 0 the week before; 2 other refunds."
    var refundSentence: String {
        let (ours, before, others) = (refunds.current.ours, refunds.previous.ours, refunds.current.others)
        return "\(ours.count) refund\(ours.count == 1 ? "" : "s") we caused\(Self.moneyInParentheses(ours.amounts)) this week, "
            + storeFigure("\(before.count)\(Self.moneyInParentheses(before.amounts))", previous: true) + " in \(week.previous); "
            + "\(others.count) other refund"
            + "\(others.count == 1 ? "" : "s")\(Self.moneyInParentheses(others.amounts)) (a charge granted in time, one no grant is expected "
            + "for, or one the stores' notifications do not hold)."
    }

    /// " (14.97 USD)", or nothing without an amount.
    static func moneyInParentheses(_ amounts: [String: Double]) -> String { amounts.isEmpty ? "" : " (\(money(amounts)))" }

    /// The section as HTML; empty when neither week had a refund.
    var refundsSection: HTML {
        guard refunds.current != RefundTally() || refunds.previous != RefundTally() else { return "" }
        let rows = refundRows.map { row -> HTML in
            "<tr><td class=\"text\">\(row.cause)</td><td>\(NumberText.count(Int64(row.current.count)))</td>"
                + "<td>\(Self.money(row.current.amounts))</td><td>\(storeFigure(NumberText.count(Int64(row.previous.count)), previous: true))</td>"
                + "<td>\(Self.money(row.previous.amounts))</td></tr>"
        }
        return """
            <section><h2>Refunds we caused</h2>\(storeCoverageHTML)<p>\(refundSentence)</p><div class="scroll"><table><tr><th class="text">cause</th>\
            <th>\(week.description)</th><th>amount</th><th>\(week.previous.description)</th><th>amount</th></tr>\(HTML.joined(rows))</table></div></section>
            """
    }

    /// The same as Markdown lines.
    var refundsMarkdown: [String] {
        guard refunds.current != RefundTally() || refunds.previous != RefundTally() else { return [] }
        return [
            "", "## Refunds we caused", "",
        ] + storeCoverageMarkdown + [
            refundSentence, "", "| cause | \(week) | amount | \(week.previous) | amount |", "|---|---:|---|---:|---|",
        ]
            + refundRows.map { row in
                "| \(row.cause) | \(row.current.count) | \(Self.money(row.current.amounts)) | \(storeFigure("\(row.previous.count)", previous: true)) | "
                    + "\(Self.money(row.previous.amounts)) |"
            }
    }
}
