import ArgumentParser
import Foundation
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

/// `purchase-sli charges write-off`: a person settles a charge that will not be granted.
struct ChargeWriteOffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write-off",
        abstract: "Write off a charge nobody granted: it is no longer owed, make-whole never posts it, alerts and costs stop counting it.",
        discussion: """
            For a charge that will not be granted on purpose: the user was compensated another way, the account \
            is closed, the purchase was fraud. The record keeps who decided, when and why, and `charges` shows \
            it ("written off"). A charge granted, refunded by the store or made whole already cannot be written \
            off. Run it where the database is (no server key can do it).

            Examples:
              purchase-sli charges write-off 2403865470131928 --store apple --reason "coins credited by support, ticket 4411"
              purchase-sli charges write-off 2403865470131928 --store apple --reason "account deleted" --by "Ana (support lead)"
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var policyOptions: PolicyOptions

    @Argument(help: ArgumentHelp("The charge's transaction id (Google Play: its purchase token).", valueName: "transaction"))
    var transaction: String

    @Option(name: .customLong("store"), help: ArgumentHelp("The store that charged.", valueName: "apple|google"))
    var storeName: String

    @Option(help: ArgumentHelp("Why it will not be granted, for the record (up to 300 characters).", valueName: "text"))
    var reason: String

    @Option(help: ArgumentHelp("Who decides, for the record (default: the user running the command).", valueName: "name"))
    var by: String?

    func validate() throws {
        guard Store(rawValue: storeName) != nil else { throw ValidationError("--store: expected apple or google, got \"\(storeName)\".") }
    }

    func run() async throws {
        let charged = Store(rawValue: storeName)!
        let person = by ?? ProcessInfo.processInfo.environment["USER"] ?? "an unnamed user"
        let record = try await exitingOnFailure {
            do {
                return try await ChargeWriteOff(store: try store.openStore(), rule: try policyOptions.load().reconciliation).writeOff(
                    charged, transactionID: transaction, reason: reason, by: person, atMillis: WallClock.system.nowMillis)
            } catch let failure as ChargeWriteOff.Failure {
                throw CommandFailure(message: failure.description)
            }
        }
        print("wrote off \(charged.displayName) transaction \(TerminalText.sanitized(record.transactionID)) \(TerminalText.sanitized(record.detail))")
    }
}
