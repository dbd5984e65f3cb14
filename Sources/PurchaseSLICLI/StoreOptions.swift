// swift-format-ignore-file: AmbiguousTrailingClosureOverload

import ArgumentParser
import Foundation
import Logging
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIServer

/// The `--db` option shared by every command that opens the store.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "SQLite database file, or a PostgreSQL URL postgres://user:password@host:port/database?sslmode=require (env PURCHASE_SLI_DB, "
                + "which keeps a password out of the process list; default purchase-sli.sqlite).",
            valueName: "path|url"))
    var db: String?

    func validate() throws {
        try exitingOnFailure { _ = try location() }
    }

    /// Where the store is: `--db`, else `PURCHASE_SLI_DB`, else `purchase-sli.sqlite`.
    /// - Throws: `ValidationError` for a malformed URL; ``StoreLocation/Failure`` for one this build cannot open.
    func location() throws -> StoreLocation {
        do {
            if let db { return try StoreLocation(db, source: "--db") }
            return try StoreLocation(ProcessInfo.processInfo.environment["PURCHASE_SLI_DB"] ?? "purchase-sli.sqlite", source: "PURCHASE_SLI_DB")
        } catch let failure as StoreLocation.Failure where failure.isMalformed {
            throw ValidationError(failure.description)
        }
    }

    /// What named the store: the option, the environment variable, or the default.
    private var locationSource: String {
        if db != nil { return "--db" }
        return ProcessInfo.processInfo.environment["PURCHASE_SLI_DB"] == nil ? "the default --db" : "PURCHASE_SLI_DB"
    }

    /// Opens the store to read, or change, what it holds (a storage error is a ``PurchaseSLICore/UserFacingError``:
    /// the command stops with its one line). A SQLite file that does not exist is refused, never created: a
    /// mistyped path would read as a store without events, and a store without events as all clear.
    func openStore(configuration: StoreConfiguration = .default) async throws -> OpenedStore {
        let location = try location()
        if let path = location.filePath, !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure(
                message: "\(locationSource): no database at \(path): nothing to read. Ingest events into it first "
                    + "(`purchase-sli ingest FILE --db \(path)`, or the samples: `purchase-sli demo --db \(path)`), or name the "
                    + "database that holds them with --db or PURCHASE_SLI_DB")
        }
        return try await location.open(configuration: configuration)
    }

    /// Opens the store to write events, notifications or windows into, creating a SQLite file that does not
    /// exist yet.
    func openOrCreateStore(configuration: StoreConfiguration = .default) async throws -> OpenedStore {
        try await location().open(configuration: configuration)
    }
}

/// An error that stops a command with a one-line message and exit code 1.
struct CommandFailure: UserFacingError {
    let message: String
    var description: String { message }
}

/// Runs a command's work, turning a ``PurchaseSLICore/UserFacingError`` (a ``CommandFailure``, a storage
/// error, an undelivered notification, a store this build cannot open) into `error: …` on standard error
/// and exit code 1 (ArgumentParser would print usage for them). The async overload of the same name is
/// what `try await exitingOnFailure { … }` picks.
func exitingOnFailure<Result>(_ work: () throws -> Result) throws -> Result {
    do {
        return try work()
    } catch {
        throw exitCode(for: error)
    }
}

/// ``exitingOnFailure(_:)-(()->Result)`` for async work.
func exitingOnFailure<Result>(_ work: () async throws -> Result) async throws -> Result {
    do {
        return try await work()
    } catch {
        throw exitCode(for: error)
    }
}

/// Prints a failure that stops a command and returns exit code 1 in its place; any other error as it is.
private func exitCode(for error: any Error) -> any Error {
    guard let failure = error as? any UserFacingError else { return error }
    printError("error: \(failure)")
    return ExitCode.failure
}

/// Limits and retention of the store, for the commands that write to it.
struct RetentionOptions: ParsableArguments {
    @Option(help: "Distinct values counted per dimension per UTC day and app (and apps per day); more are counted as __other__.")
    var cardinalityCap: Int = StoreConfiguration.default.cardinalityCap

    @Option(
        help:
            "Distinct values counted per dimension per UTC day across every app together; past it no app counts a new value that day (default: 10 times --cardinality-cap)."
    )
    var totalCardinalityCap: Int?

    @Option(
        help:
            "Distinct series (combinations of dimension values) counted per UTC day and app; the events of more count in their action's __other__ series."
    )
    var seriesCap: Int = StoreConfiguration.default.seriesCap

    @Option(
        help:
            "Distinct series counted per UTC day across every app together; past it no app counts a new series that day (default: 10 times --series-cap)."
    )
    var totalSeriesCap: Int?

    @Option(help: ArgumentHelp("How long an eventID is remembered for dedup (at least 8d).", valueName: "duration"))
    var dedupHorizon: String = "8d"

    @Option(help: ArgumentHelp("Keep minute buckets this long before the newest event.", valueName: "duration"))
    var minuteRetention: String = "35d"

    @Option(help: ArgumentHelp("Keep hour buckets this long before the newest event.", valueName: "duration"))
    var hourRetention: String = "400d"

    @Option(help: ArgumentHelp("Keep day buckets this long before the newest event (forever if not given).", valueName: "duration"))
    var dayRetention: String?

    @Option(
        help: ArgumentHelp(
            "Keep the stores' notifications and the app's reports per transaction this long after they happened (at least 7d).",
            valueName: "duration"))
    var storeRetention: String = "90d"

    func validate() throws {
        _ = try configuration()
    }

    /// A total ceiling's default: ten apps' worth of the cap of one, or as much as an Int holds.
    private static func tenTimes(_ cap: Int) -> Int { cap > Int.max / 10 ? Int.max : cap * 10 }

    /// The store configuration these options describe.
    func configuration() throws -> StoreConfiguration {
        func seconds(_ text: String, _ option: String) throws -> Int64 {
            guard let step = TimeStep(parsing: text) else {
                throw ValidationError("--\(option): expected a duration such as 8d, 12h or 2w, got \"\(text)\".")
            }
            return step.seconds
        }
        guard cardinalityCap >= 1 else { throw ValidationError("--cardinality-cap must be at least 1, got \(cardinalityCap).") }
        let totalCardinalityCap = totalCardinalityCap ?? Self.tenTimes(cardinalityCap)
        guard totalCardinalityCap >= cardinalityCap else {
            throw ValidationError("--total-cardinality-cap must be at least --cardinality-cap (\(cardinalityCap)), got \(totalCardinalityCap).")
        }
        guard seriesCap >= 1 else { throw ValidationError("--series-cap must be at least 1, got \(seriesCap).") }
        let totalSeriesCap = totalSeriesCap ?? Self.tenTimes(seriesCap)
        guard totalSeriesCap >= seriesCap else {
            throw ValidationError("--total-series-cap must be at least --series-cap (\(seriesCap)), got \(totalSeriesCap).")
        }
        var configuration = StoreConfiguration.default
        configuration.cardinalityCap = cardinalityCap
        configuration.totalCardinalityCap = totalCardinalityCap
        configuration.seriesCap = seriesCap
        configuration.totalSeriesCap = totalSeriesCap
        configuration.dedupHorizonSeconds = try seconds(dedupHorizon, "dedup-horizon")
        guard configuration.dedupHorizonSeconds >= 8 * .secondsPerDay else {
            throw ValidationError("--dedup-horizon must be at least 8d: the App Store retries notifications for up to 157 hours.")
        }
        configuration.minuteRetentionSeconds = try seconds(minuteRetention, "minute-retention")
        configuration.hourRetentionSeconds = try seconds(hourRetention, "hour-retention")
        configuration.dayRetentionSeconds = try dayRetention.map { try seconds($0, "day-retention") }
        configuration.storeRecordRetentionSeconds = try seconds(storeRetention, "store-retention")
        guard configuration.storeRecordRetentionSeconds >= 7 * .secondsPerDay else {
            throw ValidationError("--store-retention must be at least 7d: a week's charges are reviewed as a whole.")
        }
        return configuration
    }
}
