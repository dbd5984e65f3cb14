import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

extension DashboardFrame {
    /// The stores' charges against the app's grants over the last day (per 15 minutes), the charges
    /// ungranted now, oldest first, with their age and what the app last reported, how long charges took
    /// to be granted (``grantTimesSection(_:coverage:limit:)``), what the day's notifications cover when not
    /// all of it, and the grants no charge paid for (``grantsPanel(_:limit:storeNotifies:)``).
    func reconciliationPanel(_ data: ReconciliationPanelData, limit: Int = 20) -> HTML {
        let day: Int64 = .secondsPerDay
        let step = ReconciliationPanelData.stepSeconds
        let heading: HTML = "<h3>Store charges and grants, last 24 h</h3>"
        let rule = policy.reconciliation
        let start = (atSeconds - day).floorDividedBy(step).quotient * step
        let ledger = data.ledger
        let grants = grantsPanel(data.unpaidGrants, limit: limit, storeNotifies: !ledger.charges.isEmpty)
        guard let coverage = data.coverage, !ledger.charges.isEmpty else {
            return "<section class=\"card\">\(heading)<p class=\"muted\">No store charge notified in the last day: see "
                + "docs/store-notifications.md to send the App Store's and Google Play's notifications to serve.</p>\(grants)</section>"
        }
        let now = atSeconds * .millisPerSecond
        let grace = rule.graceSeconds * .millisPerSecond
        let steps = Int((atSeconds - start + step - 1) / step)
        var charged = [Double?](repeating: 0, count: steps)
        var missing = [Double?](repeating: 0, count: steps)
        for charge in ledger.expectedCharges where charge.eventMillis >= start * .millisPerSecond {
            let index = Int((charge.eventMillis / .millisPerSecond - start) / step)
            guard index < steps else { continue }
            charged[index]! += 1
            // Not granted within the grace time (or, for the last quarter hour, not yet).
            if !charge.isGranted(by: min(now, charge.eventMillis + grace)) { missing[index]! += 1 }
        }
        let chart = TimeSeriesChart(
            startSeconds: start, stepSeconds: step,
            series: [
                .init(label: "charged (expecting a grant)", values: charged),
                .init(label: "not granted within \(NumberText.duration(rule.graceSeconds))", values: missing),
            ],
            yLabel: "charges per 15 min", format: { NumberText.count(Int64($0.rounded())) }, zone: zone)
        let ungranted = ledger.overdueCharges.filter {
            $0.eventMillis >= now - rule.ticketLookbackSeconds * .millisPerSecond && rule.isOwed($0, atMillis: now)
        }
        var amounts: [String: Double] = [:]
        for charge in ungranted {
            if let price = charge.notification.price, let currency = charge.notification.currency { amounts[currency, default: 0] += price }
        }
        let money = amounts.sorted { $0.key < $1.key }.map { NumberText.money($0.value, currency: $0.key) }.joined(separator: " + ")
        let rows = ungranted.prefix(limit).map { charge -> HTML in
            let notification = charge.notification
            let report =
                charge.report.map { report -> String in
                    let offset = (report.lastMillis - charge.eventMillis) / .millisPerSecond
                    return "\(report.lastResult.rawValue) \(NumberText.seconds(abs(offset))) \(offset < 0 ? "before" : "after")"
                        + (report.lastErrorDescription.map { " (\(String($0.prefix(60))))" } ?? "")
                } ?? "nothing"
            return
                "<tr><td>\(zone.timestamp(charge.eventMillis / .millisPerSecond))</td><td>\(NumberText.duration((now - charge.eventMillis) / .millisPerSecond))</td>"
                + "<td class=\"text\">\(notification.store.displayName)</td><td class=\"text\">\(charge.productID)</td>"
                + "<td class=\"text\">\(notification.transactionID ?? "")</td>"
                + "<td>\(notification.price.map { NumberText.money($0, currency: notification.currency ?? "") } ?? "")</td>"
                + "<td class=\"text\">\(report)</td></tr>"
        }
        let table: HTML =
            ungranted.isEmpty && coverage.isEmpty
            ? "<p class=\"muted\">No store notifications for the last \(NumberText.duration(rule.ticketLookbackSeconds)): whether charges were granted is unknown.</p>"
            : ungranted.isEmpty
                ? "<p>Every charge of the last \(NumberText.duration(rule.ticketLookbackSeconds)) past its grace time was granted.</p>"
                : """
                <p class="bad"><strong>\(ungranted.count) charge\(ungranted.count == 1 ? "" : "s") not granted\(money.isEmpty ? "" : " (\(money))")</strong>, \
                oldest first\(ungranted.count > limit ? " (the first \(limit))" : ""):</p>
                <div class="scroll"><table><tr><th>charged</th><th>age</th><th class="text">store</th><th class="text">product</th>\
                <th class="text">transaction</th><th>price</th><th class="text">the app last reported</th></tr>\(HTML.joined(Array(rows)))</table></div>
                """
        return "<section class=\"card\">\(heading)\(coverageNote(coverage, period: "the last 24 h"))\(chart.html)\(table)"
            + "\(grantTimesSection(data.grantTimes, coverage: coverage))\(grants)</section>"
    }

    /// The grants of the last day (the ticket lookback) that no charge paid for as of now (`unpaid`), as
    /// DoubleGrant and GrantedWithoutCharge count them: how many of each and their worth, then the newest first.
    /// Without store notifications (`storeNotifies` false) no grant can be checked for its charge, and it says so.
    private func grantsPanel(_ unpaid: [GrantListRow], limit: Int, storeNotifies: Bool) -> HTML {
        let lookback = policy.reconciliation.ticketLookbackSeconds
        let unchecked = "(without store charges, no grant can be checked for the charge behind it)"
        guard !unpaid.isEmpty else {
            return
                "<p>No grant of the last \(NumberText.duration(lookback)) was granted again \(storeNotifies ? "or is without a charge" : unchecked).</p>"
        }
        let counts = WeeklyReport.UnpaidGrants(unpaid)
        let money = counts.worth.sorted { $0.key < $1.key }.map { NumberText.money($0.value, currency: $0.key) }.joined(separator: " + ")
        let repeats = counts.grantedAgain
        let rows = unpaid.reversed().prefix(limit).map { row -> HTML in
            let record = row.grant.record
            let problem =
                row.repeatOf.map { "granted again (first \(zone.timestamp($0.millis / .millisPerSecond)))" } ?? "no store charge names it"
            return "<tr><td>\(zone.timestamp(record.millis / .millisPerSecond))</td><td class=\"text\">\(row.grant.store?.displayName ?? "")</td>"
                + "<td class=\"text\">\(record.productID)</td><td class=\"text\">\(record.transactionID)</td>"
                + "<td class=\"text\">\(record.actionType.rawValue)</td><td class=\"text\">\(record.appVersion ?? "")</td>"
                + "<td>\(row.worth.map { NumberText.money($0.amount, currency: $0.currency) } ?? "")</td><td class=\"text\">\(problem)</td></tr>"
        }
        return """
            <p class="bad"><strong>\(repeats) grant\(repeats == 1 ? "" : "s") of a transaction granted before\
            \(storeNotifies ? ", \(counts.withoutCharge) without a charge" : "")\(money.isEmpty ? "" : " (\(money) given away)")</strong> \
            in the last \(NumberText.duration(lookback))\(storeNotifies ? "" : " " + unchecked), newest first\
            \(unpaid.count > limit ? " (the first \(limit))" : ""):</p>
            <div class="scroll"><table><tr><th>granted</th><th class="text">store</th><th class="text">product</th>\
            <th class="text">transaction</th><th class="text">action</th><th class="text">app version</th><th>price</th>\
            <th class="text">problem</th></tr>\(HTML.joined(Array(rows)))</table></div>
            """
    }
}
