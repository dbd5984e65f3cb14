import ArgumentParser
import Foundation
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

/// `purchase-sli rollout confirm ID`: a person confirms a live action on a store's release that `serve`
/// holds back until someone does.
struct RolloutConfirmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confirm",
        abstract: "Confirm a live rollout action that awaits a person: serve's next rollout check pauses the release.",
        discussion: """
            With --rollout-actions live, serve pauses a store's release only once a person confirms it (unless \
            --rollout-confirm none): the verdict rests on events any holder of the public ingest key can send. \
            The notification and `purchase-sli rollout` name the action's id; the record keeps who confirmed and \
            when beside the evidence. Run it where the database is (the command needs no server key).

            Examples:
              purchase-sli rollout confirm 3fa2c19b07d1
              purchase-sli rollout confirm 3fa2c19b07d1 --by "Ana (release manager)"
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The action's id, as the notification and `purchase-sli rollout` show it.", valueName: "id"))
    var id: String

    @Option(help: ArgumentHelp("Who confirms, for the audit record (default: the user running the command).", valueName: "name"))
    var by: String?

    func run() async throws {
        let person = by ?? ProcessInfo.processInfo.environment["USER"] ?? "an unnamed user"
        let now = WallClock.system.nowSeconds
        let action = try await exitingOnFailure {
            do {
                return try await RolloutConfirmation(store: try store.openStore()).confirm(id: id, by: person, atSeconds: now)
            } catch let failure as RolloutConfirmation.Failure {
                throw CommandFailure(message: failure.description)
            }
        }
        let verb = action.store == .apple ? "pauses the App Store phased release" : "halts the Google Play staged rollout"
        print(
            "confirmed \(action.id): serve's next rollout check \(verb) of \(TerminalText.sanitized(action.candidate)) (the \(action.verdict) verdict)"
        )
    }
}
