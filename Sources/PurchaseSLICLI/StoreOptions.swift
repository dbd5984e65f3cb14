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

/// Limits and retention of the store, for the commands that write to it: `serve`'s settings of the same
/// names (their help is the table's), as options alone.
struct RetentionOptions: ParsableArguments {
    @Option(help: ServeSetting.named("cardinalityCap").optionHelp()) var cardinalityCap: Int = StoreConfiguration.default.cardinalityCap
    @Option(help: ServeSetting.named("totalCardinalityCap").optionHelp(sayingDefault: true)) var totalCardinalityCap: Int?
    @Option(help: ServeSetting.named("seriesCap").optionHelp()) var seriesCap: Int = StoreConfiguration.default.seriesCap
    @Option(help: ServeSetting.named("totalSeriesCap").optionHelp(sayingDefault: true)) var totalSeriesCap: Int?
    @Option(help: ServeSetting.named("dedupHorizon").optionHelp()) var dedupHorizon: String = "8d"
    @Option(help: ServeSetting.named("minuteRetention").optionHelp()) var minuteRetention: String = "35d"
    @Option(help: ServeSetting.named("hourRetention").optionHelp()) var hourRetention: String = "400d"
    @Option(help: ServeSetting.named("dayRetention").optionHelp(sayingDefault: true)) var dayRetention: String?
    @Option(help: ServeSetting.named("storeRetention").optionHelp()) var storeRetention: String = "90d"

    func validate() throws {
        _ = try configuration()
    }

    /// The store configuration these options describe (checked as `serve`'s settings are, ``StorageSettings``).
    func configuration() throws -> StoreConfiguration {
        func seconds(_ text: String, _ option: String) throws -> Int64 {
            guard let step = TimeStep(parsing: text) else {
                throw ValidationError("--\(option): expected a duration such as 8d, 12h or 2w, got \"\(text)\".")
            }
            return step.seconds
        }
        var settings = StorageSettings()
        settings.cardinalityCap = cardinalityCap
        settings.totalCardinalityCap = totalCardinalityCap
        settings.seriesCap = seriesCap
        settings.totalSeriesCap = totalSeriesCap
        settings.dedupHorizonSeconds = try seconds(dedupHorizon, "dedup-horizon")
        settings.minuteRetentionSeconds = try seconds(minuteRetention, "minute-retention")
        settings.hourRetentionSeconds = try seconds(hourRetention, "hour-retention")
        settings.dayRetentionSeconds = try dayRetention.map { try seconds($0, "day-retention") }
        settings.storeRetentionSeconds = try seconds(storeRetention, "store-retention")
        do {
            return try settings.configuration { key in "--" + ServeSetting.named(key).option! }
        } catch {
            throw ValidationError(error.message)
        }
    }
}
