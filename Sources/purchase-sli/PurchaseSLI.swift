import ArgumentParser
import PurchaseSLICLI

/// The `purchase-sli` executable: the root command of ``PurchaseSLICommand`` run through the async
/// entry point that `@main` selects (top-level code would pick the synchronous one, which refuses `serve`).
@main
struct PurchaseSLI: AsyncParsableCommand {
    static let configuration = PurchaseSLICommand.configuration

    /// Parses the command line (with `query`'s repeated `--where` joined, see ``RepeatedOptions``) and runs it.
    static func main() async {
        await main(RepeatedOptions.joiningWhere(Array(CommandLine.arguments.dropFirst())))
    }
}
