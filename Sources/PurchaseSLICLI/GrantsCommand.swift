import ArgumentParser
import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

/// `purchase-sli grants`: the app's grants with the store charges behind them.
struct GrantsCommand: AsyncParsableCommand {
    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv
    }

    static let configuration = CommandConfiguration(
        commandName: "grants",
        abstract: "List the grants of [from, to) with the store charge behind each: granted again, or without a charge.",
        discussion: """
            A grant is a success event of a purchase or retry that names its transactionID (a restore grants what \
            was bought before and is not one). It is granted again when an earlier grant named the same \
            transaction within 7 days (the grant server should have answered 409 already granted); it is \
            without a charge, as of --at, when no store notification charged its transaction by then although \
            the wait of reconciliation.grantsWithoutCharge has passed, its store is one that policy names, that \
            store's notifications kept arriving after the wait, and the store charged its product in the 7 days \
            before: revenue given away, or a replayed or forged receipt.

            Examples:
              purchase-sli grants --from now-1d --to now --double
              purchase-sli grants --from now-1d --to now --uncharged --format csv > uncharged.csv
              purchase-sli grants --from now-7d --to now --transaction 2000000471416079
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var policyOptions: PolicyOptions
    @OptionGroup var timeZone: TimeZoneOption

    @OptionGroup var list: LedgerListOptions

    @Flag(help: "Only the grants of a transaction granted before.")
    var double = false

    @Flag(help: "Only the grants without a charge.")
    var uncharged = false

    @Option(help: "Output format.")
    var format: Format = .table

    func validate() throws {
        if double, uncharged { throw ValidationError("--double and --uncharged list different grants: give one of them.") }
    }

    func run() async throws {
        let output = try await exitingOnFailure { () async throws -> String in
            let (from, to, at) = try list.range(nowSeconds: WallClock.system.nowSeconds)
            let policy = try policyOptions.load()
            let context = try await AlertContext(store: try store.openStore(), policy: policy, app: list.app)
            let rows = try await context.grantList(from: from, to: to, at: at).filter { row in
                (list.storeName.map { row.grant.store?.rawValue == $0 } ?? true) && (list.product.map { row.grant.record.productID == $0 } ?? true)
                    && (list.transaction.map { row.grant.record.transactionID == $0 } ?? true) && (!double || row.repeatOf != nil)
                    && (!uncharged || row.isWithoutCharge)
            }
            switch format {
            case .table:
                return await GrantListOutput.text(
                    rows, zone: try timeZone.zone(policy), coverage: try context.storeCoverage(from: from, to: to, readAt: at))
            case .json: return GrantListOutput.jsonLines(rows)
            case .csv: return GrantListOutput.csv(rows)
            }
        }
        print(output, terminator: "")
    }
}
