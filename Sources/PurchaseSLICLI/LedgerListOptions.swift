import ArgumentParser
import Foundation
import PurchaseSLICore

/// The range and filters of the ledger's listings, `charges` and `grants`: what happened in
/// `[--from, --to)`, judged as of `--at`, narrowed to a store, app, product or transaction.
struct LedgerListOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Start of the range (inclusive): when charged, or when granted.", valueName: "time"))
    var from: String

    @Option(help: ArgumentHelp("End of the range (exclusive).", valueName: "time"))
    var to: String

    @Option(help: ArgumentHelp("Judge them as of this time (default: now).", valueName: "time"))
    var at: String = "now"

    @Option(name: .customLong("store"), help: ArgumentHelp("Only this store: apple or google.", valueName: "store"))
    var storeName: String?

    @Option(help: ArgumentHelp("Only this app (its bundle id or package name).", valueName: "id"))
    var app: String?

    @Option(help: ArgumentHelp("Only this product.", valueName: "id"))
    var product: String?

    @Option(help: ArgumentHelp("Only this transaction id (or Play purchase token).", valueName: "id"))
    var transaction: String?

    func validate() throws {
        if let storeName, Store(rawValue: storeName) == nil {
            throw ValidationError("--store: expected apple or google, got \"\(storeName)\".")
        }
        if let app { try AppOption.check(app) }
        _ = try range(nowSeconds: WallClock.system.nowSeconds)
    }

    /// The millisecond the listing judges at: `nowMillis` itself when `--at` is `now` (a grant, refund,
    /// delivery or write-off of a moment ago counts), else the start of `--at`'s minute (`atSeconds`), as
    /// an alert evaluated at that minute judges.
    func judgedMillis(atSeconds: Int64, nowMillis: Int64) -> Int64 { at == "now" ? nowMillis : atSeconds * .millisPerSecond }

    /// `--from`, `--to` and `--at` in seconds, read against `nowSeconds`.
    /// - Throws: `ValidationError` naming the option that is not a time, or when `--from` is not before `--to`.
    func range(nowSeconds: Int64) throws -> (from: Int64, to: Int64, at: Int64) {
        let range = (
            try TimeArgument.minute(from, option: "from", nowSeconds: nowSeconds),
            try TimeArgument.minute(to, option: "to", nowSeconds: nowSeconds),
            try TimeArgument.minute(at, option: "at", nowSeconds: nowSeconds)
        )
        guard range.0 < range.1 else { throw ValidationError("--from must be before --to.") }
        return range
    }
}
