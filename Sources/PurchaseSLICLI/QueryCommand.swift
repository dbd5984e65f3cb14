import ArgumentParser
import Foundation
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIStorage

/// `purchase-sli query`: counts and success rates over a time range.
struct QueryCommand: ParsableCommand {
    /// Output formats of `query`.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv
    }

    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Count events over [from, to), grouped by dimensions and optionally by UTC time steps.",
        discussion: """
            Times are \(TimeArgument.forms); the range is widened to whole minutes. \
            Dimensions: \(EventDimension.spellings). \
            success rate = (success + alreadyGranted) / valid, valid = success + alreadyGranted + failure; \
            409s = alreadyGranted or statusCode 409. Grouping or filtering by errorDescription counts the \
            events that carried each description (top failure reasons first).

            Examples:
              purchase-sli query --from now-7d --to now --by productID
              purchase-sli query --from 2026-11-14 --to 2026-11-21 --by productID --step 5m --format json
              purchase-sli query --from now-1d --to now --by appVersion,resultType --where actionType=purchase
              purchase-sli query --from now-1d --to now --by productID,errorDescription
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("Start of the range (inclusive).", valueName: "time"))
    var from: String

    @Option(help: ArgumentHelp("End of the range (exclusive).", valueName: "time"))
    var to: String

    @Option(help: ArgumentHelp("Dimensions to group by, comma-separated.", valueName: "dim,..."))
    var by: String?

    @Option(name: .customLong("where"), help: ArgumentHelp(
        "Keep only events whose dimension has this value; repeat for several values (OR within a dimension, AND across). DIM= matches events without a value.",
        valueName: "dim=value"))
    var filters: [String] = []

    @Option(help: ArgumentHelp("Group by aligned UTC time steps: a whole number of minutes, e.g. 5m, 1h, 1d.", valueName: "step"))
    var step: String?

    @Option(help: "Output format.")
    var format: Format = .table

    func validate() throws {
        _ = try makeQuery(nowSeconds: Int64(Date().timeIntervalSince1970))
    }

    func run() throws {
        let query = try makeQuery(nowSeconds: Int64(Date().timeIntervalSince1970))
        let output = try exitingOnFailure {
            let store = try store.openStore()
            return query.isAboutErrors
                ? QueryOutput(query: query, errorRows: try store.errorCounts(query))
                : QueryOutput(query: query, rows: try store.counts(query))
        }
        switch format {
        case .table: print(output.table, terminator: "")
        case .json: print(output.json)
        case .csv: print(output.csv, terminator: "")
        }
    }

    private func makeQuery(nowSeconds: Int64) throws -> CountQuery {
        do {
            return try CountQuery(
                from: from, to: to, by: by, filters: RepeatedOptions.splitting(filters), step: step, nowSeconds: nowSeconds)
        } catch {
            throw ValidationError("--\(error.message).")
        }
    }
}
