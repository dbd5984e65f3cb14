import ArgumentParser
import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering

/// `purchase-sli query`: counts and success rates over a time range.
struct QueryCommand: AsyncParsableCommand {
    /// Output formats of `query`.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv
    }

    /// What `query` counts.
    enum Subject: String, ExpressibleByArgument, CaseIterable {
        /// The app's events (outcome counts and rates).
        case events
        /// The stores' charges: granted, not granted, refunds, amounts.
        case charges
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
              purchase-sli query --of charges --from now-7d --to now --by store,productID
              purchase-sli query --of charges --from now-1d --to now --by productID,currency --step 1h --where store=apple

            With --of charges the stores' charges and refunds of the range are counted instead (from their \
            notifications, see docs/store-notifications.md): charges, those the policy expects a grant for, granted, not granted \
            (past the grace time at --at with no grant), refunds, and the amounts per currency; by \
            \(ChargeCounts.Dimension.allCases.map(\.rawValue).joined(separator: ", ")).
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("Start of the range (inclusive).", valueName: "time"))
    var from: String

    @Option(help: ArgumentHelp("End of the range (exclusive).", valueName: "time"))
    var to: String

    @Option(help: ArgumentHelp("Dimensions to group by, comma-separated.", valueName: "dim,..."))
    var by: String?

    @Option(
        name: .customLong("where"),
        help: ArgumentHelp(
            "Keep only events whose dimension has this value; repeat for several values (OR within a dimension, AND across). DIM= matches events without a value.",
            valueName: "dim=value"))
    var filters: [String] = []

    @Option(help: ArgumentHelp("Group by aligned UTC time steps: a whole number of minutes, e.g. 5m, 1h, 1d.", valueName: "step"))
    var step: String?

    @Option(help: "Output format.")
    var format: Format = .table

    @Option(help: "What to count: events, or the stores' charges.")
    var of: Subject = .events

    @Option(help: ArgumentHelp("With --of charges: judge the grants as of this time (default: now).", valueName: "time"))
    var at: String?

    @OptionGroup var policy: PolicyOptions

    @OptionGroup var timeZone: TimeZoneOption

    func validate() throws {
        if of == .charges {
            _ = try makeChargeQuery(nowSeconds: WallClock.system.nowSeconds)
        } else {
            _ = try makeQuery(nowSeconds: WallClock.system.nowSeconds)
            if at != nil { throw ValidationError("--at applies to --of charges.") }
        }
    }

    func run() async throws {
        ReadingMemory.limitArenas()
        if of == .charges { return try await runCharges() }
        let query = try makeQuery(nowSeconds: WallClock.system.nowSeconds)
        let (output, zone) = try await exitingOnFailure { () async throws -> (QueryOutput, TimeZoneOffsets) in
            let answer = try await CountQuerying(store: try store.openStore()).events(query)
            return (QueryOutput(query: query, answer: answer), try timeZone.zone(try policy.load()))
        }
        switch format {
        case .table: print(output.table(zone: zone), terminator: "")
        case .json: print(output.json)
        case .csv: print(output.csv, terminator: "")
        }
    }

    private func makeChargeQuery(nowSeconds: Int64) throws -> ChargeCountQuery {
        do {
            return try ChargeCountQuery(
                from: from, to: to, at: at, by: by, filters: RepeatedOptions.splitting(filters), step: step, nowSeconds: nowSeconds)
        } catch {
            throw ValidationError("--\(error.message).")
        }
    }

    /// `--of charges`: the stores' charges and refunds counted per group.
    private func runCharges() async throws {
        let (output, zone) = try await exitingOnFailure { () async throws -> (ChargeCountOutput, TimeZoneOffsets) in
            let query = try makeChargeQuery(nowSeconds: WallClock.system.nowSeconds)
            let policy = try policy.load()
            let rows = try await CountQuerying(store: try store.openStore()).charges(query, rule: policy.reconciliation)
            return (ChargeCountOutput(query: query, rows: rows), try timeZone.zone(policy))
        }
        switch format {
        case .table: print(output.table(zone: zone), terminator: "")
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
