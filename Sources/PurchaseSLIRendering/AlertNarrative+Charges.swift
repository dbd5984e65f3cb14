import PurchaseSLIAnalysis
import PurchaseSLICore

extension AlertNarrative {
    /// "store=apple, productID=coins_100: 3 App Store charges (29.97 USD) not granted within 15 min".
    func chargeSummary(_ charges: ChargeEvidence) -> String {
        let product = escaping.escape(finding.labels.slice?.value ?? "")
        let money = charges.amounts.isEmpty ? "" : " (" + charges.amounts.map {
            NumberText.money($0.amount, currency: escaping.escape($0.currency))
        }.joined(separator: " + ") + ")"
        let plural = charges.ungranted == 1 ? "charge" : "charges"
        return "\(product): \(charges.ungranted) \(charges.store.displayName) \(plural)\(money) taken and not granted within "
            + "\(NumberText.duration(charges.graceSeconds)): money charged, nothing delivered"
    }

    /// The window's share, then each of the oldest charges with what the app reported about it.
    func chargeDetails(_ charges: ChargeEvidence) -> [String] {
        let window = NumberText.duration(charges.windowSeconds)
        var lines = [
            "charges whose grace ended in the last \(window): \(charges.windowUngranted) of \(charges.windowCharges) not granted"
                + (charges.windowCharges > 0 ? " (\(NumberText.percent(Double(charges.windowUngranted) / Double(charges.windowCharges))))" : "")
                + "; all \(charges.store.displayName) charges: \(charges.storeWindowUngranted) of \(charges.storeWindowCharges)",
        ]
        let shown = charges.oldest.count < charges.ungranted ? "the oldest \(charges.oldest.count)" : "each"
        lines.append("\(shown), with what the app last reported:")
        lines += charges.oldest.map(chargeLine)
        return lines
    }

    /// "2000000123 charged 10:02:40 (ONE_TIME_CHARGE, 9.99 USD): client reported cancel at 10:02:11 …".
    private func chargeLine(_ charge: ChargeLedger.Charge) -> String {
        let notification = charge.notification
        let id = escaping.escape(notification.transactionID ?? "(no transaction id)")
        let price = notification.price.map { ", " + NumberText.money($0, currency: escaping.escape(notification.currency ?? "")) } ?? ""
        var line = "  \(id) charged \(RFC3339.format(millis: notification.eventMillis)) (\(escaping.escape(notification.type))\(price)): "
        guard let report = charge.report else {
            return line + "no event from the app names it (by transactionID or appAccountToken): the app never reported the attempt, "
                + "or does not send these ids"
        }
        let at = RFC3339.format(millis: report.lastMillis)
        let via = if case .appAccountToken = report.key { " (matched by appAccountToken)" } else { "" }
        line += "client reported \(report.lastResult.rawValue)"
        if let status = report.lastStatusCode { line += " (HTTP \(status))" }
        if let error = report.lastErrorDescription { line += " \"\(escaping.escape(String(error.prefix(80))))\"" }
        line += " at \(at)\(via)"
        switch report.lastResult {
        case .cancel: line += ", store charged at \(RFC3339.format(millis: notification.eventMillis)): the payment-detour pattern"
        case .start: line += " and nothing after: a crash or kill after the charge?"
        case .pending: line += ": approved later (Ask to Buy); the app must grant it from Transaction.updates"
        case .failure: line += ": the grant failed and was not retried"
        case .success, .alreadyGranted: line += " without naming this transaction"
        }
        if notification.store == .google {
            line += "; Play refunds it at \(RFC3339.format(millis: notification.eventMillis + 3 * 86_400_000)) unless acknowledged"
        }
        return line
    }

    /// The command that lists the charges, and where the store shows each one.
    func chargeLookNext(_ charges: ChargeEvidence) -> String {
        var words = ["purchase-sli", "charges"]
        if let database = report.databasePath { words += ["--db", database] }
        words += [
            "--from", RFC3339.format(seconds: finding.time - charges.lookbackSeconds), "--to", RFC3339.format(seconds: finding.time),
            "--store", charges.store.rawValue, "--product", finding.labels.slice?.value ?? "", "--ungranted",
        ]
        let lookup = charges.store == .apple
            ? "; each id: App Store Server API GET /inApps/v1/transactions/{transactionId}"
            : "; each token: Play Developer API purchases.products.get or purchases.subscriptionsv2.get"
        return TerminalText.sanitized(words.map(ShellWord.quoted).joined(separator: " ") + lookup)
    }
}
