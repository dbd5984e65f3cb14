import ArgumentParser
import PurchaseSLIStorage

/// The `--db` option shared by every command that opens the store.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("SQLite database file.", valueName: "path"))
    var db: String = "purchase-sli.sqlite"

    func openStore(configuration: StoreConfiguration = .default) throws -> SQLiteBucketStore {
        do {
            return try SQLiteBucketStore(path: db, configuration: configuration)
        } catch let error as StorageError {
            throw CommandFailure(message: error.description)
        }
    }
}

/// An error that stops a command with a one-line message and exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
