import ArgumentParser
import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIOutbound
import PurchaseSLIRendering

/// `purchase-sli make-whole`: posts the charges not granted to the team's grant server, each once.
struct MakeWholeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make-whole",
        abstract: "Post the charges of [from, to) not granted past their grace time (as of --at) to the team's grant server, so that it grants them.",
        discussion: """
            One POST per charge with what a grant server needs (store, transactionID, productID, app, \
            appAccountToken, price, currency, chargedAt) as JSON and an Idempotency-Key header of its store \
            and transaction, so that a server keeping the key grants it once however often it is posted. A \
            charge is retried with exponential backoff (--retry-delay, doubling) while the server does not \
            answer or answers 5xx, 408 or 429, up to --attempts times per run. Each outcome is kept in the \
            database: a charge delivered (a 2xx whose JSON body names it: {"transactionID": "…"}), already \
            granted (409) or refused (another 4xx) is not posted again; one that failed (no answer, a 5xx, a \
            redirect, which is never followed, or a 2xx without that body) is posted again by the next run. \
            Exits 1 when any charge was refused or failed. --dry-run lists what would be posted.

            Examples:
              purchase-sli make-whole --from now-1d --to now --url https://grants.example.com/make-whole
              purchase-sli make-whole --from now-7d --to now --product coins_500 --url https://grants.example.com/make-whole --dry-run
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var policyOptions: PolicyOptions
    @OptionGroup var timeZone: TimeZoneOption
    @OptionGroup var list: LedgerListOptions

    @Option(help: ArgumentHelp("The grant server's endpoint (http or https).", valueName: "url"))
    var url: String

    @Option(help: "Attempts per charge in this run (1 to 10).")
    var attempts = 4

    @Option(help: ArgumentHelp("The wait before the second attempt, doubling after (such as 1s, 5s).", valueName: "duration"))
    var retryDelay = "1s"

    @Flag(help: "List what would be posted, and post nothing.")
    var dryRun = false

    func validate() throws {
        guard OutboundHTTP.absoluteURL(url) != nil else { throw ValidationError("--url: expected an http or https URL, got \"\(url)\".") }
        guard (1...10).contains(attempts) else { throw ValidationError("--attempts: expected 1 to 10, got \(attempts).") }
        guard let step = TimeStep(parsing: retryDelay), step.seconds <= .secondsPerMinute else {
            throw ValidationError("--retry-delay: expected a duration from 1s to 60s such as 1s, 5s, got \"\(retryDelay)\".")
        }
    }

    func run() async throws {
        let output = try await exitingOnFailure { () async throws -> String in
            let nowMillis = WallClock.system.nowMillis
            let (from, to, atSeconds) = try list.range(nowSeconds: nowMillis / .millisPerSecond)
            let at = list.judgedMillis(atSeconds: atSeconds, nowMillis: nowMillis)
            let policy = try policyOptions.load()
            let rule = policy.reconciliation
            let deliveries = await MakeWholeDeliveries(store: try store.openStore(), rule: rule)
            let owed = try await deliveries.owed(fromSeconds: from, toSeconds: to, atMillis: at) { charge in
                (list.storeName.map { charge.notification.store.rawValue == $0 } ?? true)
                    && (list.app.map { charge.notification.appID == $0 } ?? true)
                    && (list.product.map { charge.productID == $0 } ?? true)
                    && (list.transaction.map { charge.notification.transactionID == $0 } ?? true)
            }
            let rows = try await HTTPClientTransport.withTransport { transport in
                let poster = MakeWholePoster(
                    url: URL(string: url)!, maxAttempts: attempts, firstRetrySeconds: Double(TimeStep(parsing: retryDelay)!.seconds),
                    transport: transport)
                var rows: [MakeWholeOutput.Row] = []
                for (charge, previous) in owed {
                    if let previous, previous.outcome.isSettled {
                        rows.append(MakeWholeOutput.Row(charge: charge, delivery: previous, postedNow: false))
                    } else if dryRun {
                        rows.append(MakeWholeOutput.Row(charge: charge, delivery: previous, postedNow: false))
                    } else {
                        let delivery = await poster.post(charge, previous: previous) { WallClock.system.nowMillis }
                        // Kept as soon as it is known: a run stopped halfway posts none of these again.
                        try await deliveries.keep(delivery)
                        rows.append(MakeWholeOutput.Row(charge: charge, delivery: delivery, postedNow: true))
                    }
                }
                return rows
            }
            let text = MakeWholeOutput.text(rows, dryRun: dryRun, zone: try timeZone.zone(policy))
            let unsettled = rows.filter { $0.postedNow && !($0.delivery.map { $0.outcome == .delivered || $0.outcome == .alreadyGranted } ?? false) }
            guard unsettled.isEmpty else {
                print(text, terminator: "")
                // Why each was not taken (a redirect, a 2xx without the expected body, no answer), once per reason.
                var reasons: [String] = []
                for row in unsettled {
                    if let detail = row.delivery?.detail, !detail.isEmpty, !reasons.contains(detail) { reasons.append(detail) }
                }
                for reason in reasons.prefix(3) {
                    let printable = reason.unicodeScalars.filter { $0.properties.generalCategory != .control }.prefix(300)
                    printError("  " + String(String.UnicodeScalarView(printable)))
                }
                throw CommandFailure(message: "\(unsettled.count) charge\(unsettled.count == 1 ? "" : "s") not taken by the grant server")
            }
            return text
        }
        print(output, terminator: "")
    }
}
