import ArgumentParser
import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering

/// `purchase-sli charges`: the stores' charges, listed (the default) or written off.
struct ChargesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "charges",
        abstract: "List the stores' charges with their grant and what the app reported (the default), or write one off.",
        subcommands: [ChargesListCommand.self, ChargeWriteOffCommand.self], defaultSubcommand: ChargesListCommand.self)
}

/// `purchase-sli charges [list]`: the stores' charges with their grants and what the app reported.
struct ChargesListCommand: AsyncParsableCommand {
    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv
    }

    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the stores' charges of [from, to) with their grant and what the app last reported about each.",
        discussion: """
            A charge is granted once an event with resultType success or alreadyGranted names its transactionID; \
            it is owed (what --ungranted lists) when the policy (reconciliation in slos.yaml) expects a grant for \
            its type, none came within the grace time by --at, and nothing else settled it by then: the store did \
            not refund or revoke it, make-whole did not deliver it, nobody wrote it off (`charges write-off`). \
            What the app last reported is found by the transactionID, else by the appAccountToken the app passed \
            to the store.

            Examples:
              purchase-sli charges --from now-1d --to now --ungranted
              purchase-sli charges --from now-7d --to now --product coins_500 --format json
              purchase-sli charges --from now-7d --to now --ungranted --format csv > make-whole.csv
              purchase-sli charges --from now-1d --to now --slow --store apple
              purchase-sli charges --from now-30d --to now --transaction 2000000471416079
              purchase-sli charges --from now-1d --to now --refunds --product coins_500
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var policyOptions: PolicyOptions
    @OptionGroup var timeZone: TimeZoneOption

    @OptionGroup var list: LedgerListOptions

    @Flag(help: "Only the charges owed: not granted past their grace time, nor refunded, made whole or written off.")
    var ungranted = false

    @Flag(
        help: ArgumentHelp(
            "Only the charges granted later than the time-to-grant objective allows (reconciliation.timeToGrant's within, 60 s by default), or not at all.",
            discussion: "A charge still inside that time and not granted yet is not listed."))
    var slow = false

    @Flag(help: "List the refunds and revocations of [from, to) instead of the charges.")
    var refunds = false

    @Option(help: "Output format.")
    var format: Format = .table

    func validate() throws {
        if refunds, ungranted { throw ValidationError("--ungranted applies to charges, not to --refunds.") }
        if refunds, slow { throw ValidationError("--slow applies to charges, not to --refunds.") }
    }

    func run() async throws {
        let output = try await exitingOnFailure { () async throws -> String in
            let nowMillis = WallClock.system.nowMillis
            let (from, to, atSeconds) = try list.range(nowSeconds: nowMillis / .millisPerSecond)
            let at = list.judgedMillis(atSeconds: atSeconds, nowMillis: nowMillis)
            let policy = try policyOptions.load()
            let database = try await store.openStore()
            let rule = policy.reconciliation
            if slow, rule.timeToGrant == nil {
                throw ValidationError("--slow: the policy has no time-to-grant objective (reconciliation.timeToGrant is off).")
            }
            let withinMillis = (rule.timeToGrant?.withinSeconds ?? 0) * .millisPerSecond
            /// Granted later than the objective allows, or not by `at`, once its outcome is known by then (its
            /// notification received, that time past the charge), as the objective counts it.
            func isSlow(_ charge: ChargeLedger.Charge, expects: Bool) -> Bool {
                guard expects, charge.eventMillis + withinMillis <= at, charge.receivedMillis <= at else { return false }
                guard let granted = charge.grantedMillis, granted <= at else { return true }
                return granted - charge.eventMillis > withinMillis
            }
            let rows: [ChargeListOutput.Row]
            if refunds {
                // Each refund with the cause its charge (of whatever time) tells.
                rows = try await database.refundLedger(fromMillis: from * .millisPerSecond, toMillis: to * .millisPerSecond, rule: rule).refundCauses(
                    rule: rule
                ).map {
                    ChargeListOutput.Row(charge: $0.refund, expectsGrant: false, isOwed: false, refundCause: $0.cause)
                }
            } else {
                rows = try await database.ledger(kinds: [.charge], fromMillis: from * .millisPerSecond, toMillis: to * .millisPerSecond, rule: rule)
                    .charges.map { charge in
                        ChargeListOutput.Row(
                            charge: charge,
                            expectsGrant: rule.expectsGrant(type: charge.notification.type, environment: charge.notification.environment),
                            isOwed: rule.isOwed(charge, atMillis: at), settlement: charge.settlement(by: at))
                    }
            }
            let listed = rows.filter { row in
                (list.storeName.map { row.charge.notification.store.rawValue == $0 } ?? true)
                    && (list.app.map { row.charge.notification.appID == $0 } ?? true)
                    && (list.product.map { row.charge.productID == $0 } ?? true)
                    && (list.transaction.map { row.charge.notification.transactionID == $0 } ?? true)
                    && (!ungranted || row.isOwed) && (!slow || isSlow(row.charge, expects: row.expectsGrant))
            }
            switch format {
            case .table:
                let coverage = try await AlertContext(store: database, policy: policy, app: list.app).storeCoverage(from: from, to: to, readAt: at)
                return ChargeListOutput.text(listed, zone: try timeZone.zone(policy), coverage: coverage)
            case .json: return ChargeListOutput.jsonLines(listed)
            case .csv: return ChargeListOutput.csv(listed)
            }
        }
        print(output, terminator: "")
    }
}
