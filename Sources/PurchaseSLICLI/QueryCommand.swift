import ArgumentParser
import Foundation
import PurchaseSLICore
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
        let output: QueryOutput
        do {
            let store = try store.openStore()
            output = query.isAboutErrors
                ? QueryOutput(query: query, errorRows: try store.errorCounts(query))
                : QueryOutput(query: query, rows: try store.counts(query))
        } catch let error as StorageError {
            printError("error: \(error)")
            throw ExitCode.failure
        } catch let failure as CommandFailure {
            printError("error: \(failure.message)")
            throw ExitCode.failure
        }
        switch format {
        case .table: print(output.table, terminator: "")
        case .json: print(output.json)
        case .csv: print(output.csv, terminator: "")
        }
    }

    private func makeQuery(nowSeconds: Int64) throws -> CountQuery {
        guard let fromTime = TimeArgument(from, nowSeconds: nowSeconds) else {
            throw ValidationError("--from: expected \(TimeArgument.forms), got \"\(from)\".")
        }
        guard let toTime = TimeArgument(to, nowSeconds: nowSeconds) else {
            throw ValidationError("--to: expected \(TimeArgument.forms), got \"\(to)\".")
        }
        guard fromTime.seconds < toTime.seconds else { throw ValidationError("--from must be before --to.") }
        var groupBy: [EventDimension] = []
        for name in (by ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let dimension = EventDimension(name: name) else {
                throw ValidationError("--by: unknown dimension \"\(name)\"; expected one of \(EventDimension.spellings).")
            }
            guard !groupBy.contains(dimension) else { throw ValidationError("--by: \(name) is named twice.") }
            groupBy.append(dimension)
        }
        var filterValues: [EventDimension: Set<String?>] = [:]
        for filter in filters {
            guard let equals = filter.firstIndex(of: "="), let dimension = EventDimension(name: String(filter[..<equals])) else {
                throw ValidationError("--where: expected DIM=VALUE with DIM one of \(EventDimension.spellings), got \"\(filter)\".")
            }
            let value = String(filter[filter.index(after: equals)...])
            if dimension == .resultType, ResultType(rawValue: value) == nil {
                throw ValidationError("--where resultType: expected one of \(ResultType.spellings), got \"\(value)\".")
            }
            filterValues[dimension, default: []].insert(value.isEmpty ? nil : value)
        }
        if groupBy.contains(.errorDescription) || filterValues[.errorDescription] != nil,
           groupBy.contains(.resultType) || filterValues[.resultType] != nil {
            throw ValidationError("errorDescription cannot be combined with resultType: descriptions are not stored per result.")
        }
        var timeStep: TimeStep?
        if let step {
            guard let parsed = TimeStep(parsing: step), parsed.seconds % 60 == 0 else {
                throw ValidationError("--step: expected a whole number of minutes such as 5m, 1h or 1d, got \"\(step)\".")
            }
            timeStep = parsed
        }
        return CountQuery(
            fromSeconds: fromTime.seconds, toSeconds: toTime.seconds, step: timeStep, groupBy: groupBy, filters: filterValues)
    }
}
