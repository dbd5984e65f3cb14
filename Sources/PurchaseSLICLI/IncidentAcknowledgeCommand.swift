import ArgumentParser
import Foundation
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

/// `purchase-sli incidents acknowledge ID`: a person takes an incident on.
struct IncidentAcknowledgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "acknowledge",
        abstract: "Acknowledge an incident: who takes it on and what they say, kept with its record and shown wherever it is.",
        discussion: """
            ID is the incident's id as the alerts, pages and `incidents` show it; its record must be kept \
            (`incidents --rebuild` takes the records from the events). A later acknowledgement replaces the \
            one before; rebuilding the record keeps it. The owner and note are printable text on one line. \
            POST /v1/incidents/ID/acknowledge does the same with an admin key.

            Examples:
              purchase-sli incidents acknowledge 20261119-1641-b5ce28 --owner "Ana (payments on-call)"
              purchase-sli incidents acknowledge 20261119-1641-b5ce28 --owner ana --note "grant server fixed; make-whole after the refunds"
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var app: AppOption
    @OptionGroup var policyOptions: PolicyOptions
    @OptionGroup var timeZone: TimeZoneOption

    @Argument(help: ArgumentHelp("The incident's id, as the alerts show it.", valueName: "id"))
    var id: String

    @Option(help: ArgumentHelp("Who takes it on: a name, a handle, a team (up to \(IncidentBook.maximumOwnerLength) characters).", valueName: "name"))
    var owner: String

    @Option(
        help: ArgumentHelp(
            "What they say: what is being done, where to follow it (up to \(IncidentBook.maximumNoteLength) characters).", valueName: "text"))
    var note: String = ""

    @Option(help: ArgumentHelp("When it was taken on (default: now).", valueName: "time"))
    var at: String = "now"

    func validate() throws {
        guard IncidentReport.startSeconds(ofID: id) != nil else {
            throw ValidationError(
                "<id>: expected an incident id as the alerts show it, like 20261112-0703-3fa2c1, got \"\(TerminalText.sanitized(String(id.prefix(64))))\"."
            )
        }
        _ = try time(nowSeconds: WallClock.system.nowSeconds)
    }

    /// `--at` to the second, read against `nowSeconds`.
    func time(nowSeconds: Int64) throws -> Int64 {
        guard let time = TimeArgument(at, nowSeconds: nowSeconds) else {
            throw ValidationError("--at: expected \(TimeArgument.forms), got \"\(at)\".")
        }
        return time.seconds
    }

    func run() async throws {
        let output = try await exitingOnFailure { () async throws -> String in
            let seconds = try time(nowSeconds: WallClock.system.nowSeconds)
            let policy = try policyOptions.load()
            let book = IncidentBook(context: try await AlertContext(store: try store.openStore(), policy: policy, app: app.app))
            do {
                let record = try await book.acknowledge(id: id, owner: owner, note: note, at: seconds)
                return IncidentListOutput.acknowledged(record, zone: try timeZone.zone(policy))
            } catch let failure as IncidentBook.Failure {
                throw CommandFailure(message: failure.field.map { "--\($0): \(failure.reason)" } ?? failure.reason)
            }
        }
        print(output, terminator: "")
    }
}
