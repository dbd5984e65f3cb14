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
        if charges.refundedWithinADay > 0 {
            lines.append("\(charges.refundedWithinADay) of them Play refunds automatically within a day: a purchase not acknowledged "
                + "within 3 days is refunded (grant and acknowledge it now)")
        }
        let shown = charges.oldest.count < charges.ungranted ? "the oldest \(charges.oldest.count)" : "each"
        lines.append("\(shown), with what the app last reported:")
        lines += charges.oldest.map(chargeLine)
        return lines
    }

    /// "2000000123 charged 2026-11-19T16:01:09Z, 4.99 USD (ONE_TIME_CHARGE): the app reported cancel
    /// "payment cancelled" 43 s before, by appAccountToken: the payment-detour pattern".
    private func chargeLine(_ charge: ChargeLedger.Charge) -> String {
        let notification = charge.notification
        let id = escaping.escape(notification.transactionID ?? "(no transaction id)")
        let price = notification.price.map { ", " + NumberText.money($0, currency: escaping.escape(notification.currency ?? "")) } ?? ""
        let charged = notification.eventMillis
        var line = "  \(id) charged \(RFC3339.format(seconds: charged / 1000))\(price) (\(escaping.escape(notification.type))): "
        defer {
            if notification.store == .google {
                line += "; Play refunds it at \(RFC3339.format(seconds: charged / 1000 + 3 * 86_400)) unless acknowledged"
            }
        }
        guard let report = charge.report else {
            line += "no event of the app names it (by transactionID or appAccountToken): the attempt was never reported, "
                + "or the app does not send these ids"
            return line
        }
        line += "the app reported \(report.lastResult.rawValue)"
        if let status = report.lastStatusCode { line += " (HTTP \(status))" }
        if let error = report.lastErrorDescription { line += " \"\(escaping.escape(String(error.prefix(80))))\"" }
        let offset = (report.lastMillis - charged) / 1000
        line += " " + (offset < 0 ? "\(NumberText.seconds(-offset)) before" : "\(NumberText.seconds(offset)) after")
        if case .appAccountToken = report.key { line += ", by appAccountToken" }
        switch report.lastResult {
        case .cancel: line += ": the payment-detour pattern (the store charged after the app saw a cancel)"
        case .start: line += " and nothing since: a crash or kill after the charge?"
        case .pending: line += ": approved later (Ask to Buy); the app must grant it from Transaction.updates"
        case .failure: line += ": the grant failed and was not retried"
        case .success, .alreadyGranted: line += ", without naming this transaction"
        }
        return line
    }

    /// The command that lists the charges, and where the store shows each one.
    func chargeLookNext(_ charges: ChargeEvidence) -> String {
        var words = ["purchase-sli", "charges"]
        if let database = report.databasePath { words += ShellWord.option("db", database) }
        words += [
            "--from", RFC3339.format(seconds: finding.time - charges.lookbackSeconds), "--to", RFC3339.format(seconds: finding.time),
            "--at", RFC3339.format(seconds: finding.time), "--store", charges.store.rawValue,
        ] + ShellWord.option("product", finding.labels.slice?.value ?? "") + ["--ungranted"]
        let lookup = charges.store == .apple
            ? "; each id: App Store Server API GET /inApps/v1/transactions/{transactionId}"
            : "; each token: Play Developer API purchases.products.get or purchases.subscriptionsv2.get"
        return TerminalText.sanitized(words.map(ShellWord.quoted).joined(separator: " ") + lookup)
    }

    /// The command that lists the refunds of a refund spike's window.
    var refundLookNext: String {
        var words = ["purchase-sli", "charges", "--refunds"]
        if let database = report.databasePath { words += ShellWord.option("db", database) }
        let window = finding.spike?.windowSeconds ?? 86_400
        words += [
            "--from", RFC3339.format(seconds: finding.time - window), "--to", RFC3339.format(seconds: finding.time),
            "--store", finding.labels.store ?? "",
        ] + ShellWord.option("product", finding.labels.slice?.value ?? "")
        return TerminalText.sanitized(words.map(ShellWord.quoted).joined(separator: " "))
    }
}
