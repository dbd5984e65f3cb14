import ArgumentParser
import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering

/// `purchase-sli maintenance`: declares, lists and removes maintenance windows.
struct MaintenanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maintenance",
        abstract: "Declare planned work whose minutes are left out of error budgets and burn-rate alerts.",
        discussion: """
            Inside a window the chosen actions' minutes count for no objective: burn-rate alerts (pages and \
            tickets), budget bars, burn-down and attainment leave them out. Spikes of 409s and cancels, \
            unfinished purchases and charges not granted still alert: money is money. Windows live in the \
            database (or in the policy's maintenance: list); serve reads them at each evaluation, and a window \
            added for a past stretch corrects the budgets from then on. See docs/alerting.md.
            """,
        subcommands: [Add.self, List.self, Remove.self])

    /// `maintenance add`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Declare a maintenance window (one-off, recurring, or a correction after the fact).",
            discussion: """
                A recurrence whose occurrences would run into each other is refused; so are more than \
                \(MaintenanceScheduling.maximumStoredWindows) windows kept, and, without --force, windows that together \
                (with the policy's) cover more than \(MaintenanceScheduling.maximumSharePercent) % of any 28 days.

                Examples:
                  purchase-sli maintenance add --from 2026-12-01T02:00:00Z --to 2026-12-01T04:00:00Z --reason "App Store maintenance (Apple notice)"
                  purchase-sli maintenance add --from 2026-11-01T03:00:00Z --duration 30m --rrule "FREQ=WEEKLY;BYDAY=SU" --actions purchase,restore --reason "weekly grant-server deploy"
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var policyOptions: PolicyOptions

        @Option(help: ArgumentHelp("Its name, to remove it by (letters, digits, '.', '_', '-'; default: mw- and 8 hex digits).", valueName: "id"))
        var id: String?

        @Option(help: ArgumentHelp("When it starts (\(TimeArgument.forms)).", valueName: "time"))
        var from: String

        @Option(help: ArgumentHelp("When it ends (give this or --duration).", valueName: "time"))
        var to: String?

        @Option(help: ArgumentHelp("How long each occurrence lasts, such as 30m or 2h (give this or --to).", valueName: "duration"))
        var duration: String?

        @Option(
            help: ArgumentHelp(
                "When it comes back: an iCalendar RRULE with FREQ=DAILY|WEEKLY|MONTHLY, INTERVAL, BYDAY (weekly), COUNT or UNTIL.",
                valueName: "rule"))
        var rrule: String?

        @Option(help: ArgumentHelp("The actions it leaves out, comma-separated (default: every action).", valueName: "list"))
        var actions: String?

        @Option(help: ArgumentHelp("Why: shown on the pages, in the weekly review and in the list.", valueName: "text"))
        var reason: String

        @Option(help: ArgumentHelp("Only this app's budgets (default: every app's).", valueName: "id"))
        var app: String?

        @Flag(help: "Keep it even though maintenance would cover more than the most allowed of some 28 days.")
        var force = false

        func run() async throws {
            let output = try await exitingOnFailure { () async throws -> String in
                let now = WallClock.system.nowSeconds
                let declaration = MaintenanceDeclaration(
                    id: id, from: from, to: to, duration: duration, rrule: rrule,
                    actions: actions.map {
                        $0.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) }
                    }, reason: reason,
                    app: app, force: force)
                let scheduling = await MaintenanceScheduling(
                    store: try store.openOrCreateStore(), policyWindows: try policyOptions.load().maintenance)
                let window: MaintenanceWindow
                do {
                    window = try await scheduling.declare(declaration, id: MaintenanceWindow.newID(), nowSeconds: now)
                } catch let error as MaintenanceWindowError {
                    throw CommandFailure(message: "--\(error.field.split(separator: "[").first ?? ""): \(error.reason)")
                } catch let refusal as MaintenanceRefusal {
                    if let id = refusal.takenID {
                        throw CommandFailure(message: "--id: a window named \(id) exists; remove it first (maintenance remove \(id))")
                    }
                    throw CommandFailure(message: refusal.isOverridable ? "\(refusal) (--force declares it anyway)" : refusal.description)
                }
                return MaintenanceOutput.text([window])
                    + (window.isCorrection
                        ? "a correction: budgets and burn-rate alerts leave it out from now on (alerts already sent stay sent)\n" : "")
            }
            print(output, terminator: "")
        }
    }

    /// `maintenance list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the maintenance windows: the policy's and those added.",
            discussion: """
                Examples:
                  purchase-sli maintenance list
                  purchase-sli maintenance list --format json
                """)

        /// Output formats.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case table, json
        }

        @OptionGroup var store: StoreOptions
        @OptionGroup var policyOptions: PolicyOptions
        @OptionGroup var timeZone: TimeZoneOption

        @Option(help: "Output format.")
        var format: Format = .table

        func run() async throws {
            let output = try await exitingOnFailure { () async throws -> String in
                let policy = try policyOptions.load()
                let windows = try await MaintenanceScheduling(store: try store.openStore(), policyWindows: policy.maintenance).windows()
                return format == .json ? MaintenanceOutput.json(windows) : MaintenanceOutput.text(windows, zone: try timeZone.zone(policy))
            }
            print(output, terminator: "")
        }
    }

    /// `maintenance remove`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a maintenance window added before (the policy's are removed from its file).",
            discussion: """
                Example:
                  purchase-sli maintenance remove mw-3f2a9c01
                """)

        @OptionGroup var store: StoreOptions

        @Argument(help: ArgumentHelp("The window's id, as maintenance list shows it.", valueName: "id"))
        var id: String

        func run() async throws {
            let output = try await exitingOnFailure { () async throws -> String in
                guard let removed = try await MaintenanceScheduling(store: try store.openStore(), policyWindows: []).remove(id: id) else {
                    throw CommandFailure(
                        message: id.hasPrefix("policy-")
                            ? "\(id) is declared in the policy file: remove it there" : "no maintenance window \(id) (maintenance list shows them)")
                }
                return "removed \(removed.id): \(TerminalText.sanitized(removed.reason))\n"
            }
            print(output, terminator: "")
        }
    }
}
