import ArgumentParser
import Logging
import PurchaseSLICLI

/// The `purchase-sli` executable: the root command of ``PurchaseSLICommand`` run through the async
/// entry point that `@main` selects (top-level code would pick the synchronous one, which refuses `serve`).
@main
struct PurchaseSLI: AsyncParsableCommand {
    static let configuration = PurchaseSLICommand.configuration

    /// Parses the command line (with `query`'s repeated `--where` joined, see ``RepeatedOptions``) and runs it,
    /// logging to standard error (the only place the process's logging is set up: libraries only log).
    static func main() async {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        await main(RepeatedOptions.joiningWhere(Array(CommandLine.arguments.dropFirst())))
    }
}
