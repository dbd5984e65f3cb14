import ArgumentParser
import PurchaseSLICLI

/// The `purchase-sli` executable: the root command of ``PurchaseSLICommand`` run through the async
/// entry point that `@main` selects (top-level code would pick the synchronous one, which refuses `serve`).
@main
struct PurchaseSLI: AsyncParsableCommand {
    static let configuration = PurchaseSLICommand.configuration
}
