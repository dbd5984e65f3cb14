import Foundation
import PurchaseSLICore
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLICLI

/// `purchase-sli incidents`: on the sample logs, the records are taken from the events with `--rebuild`,
/// listed as a table, JSON and CSV with their figures, filtered by status, and acknowledged by a person.
/// Each test works on a copy of the sample logs' database, since it writes records.
@Suite(.sampleLogs) struct IncidentsCommandTests {
    /// The demo's time.
    static let demoTime = "2026-11-20T00:00:00Z"
    /// The payment-info detour: 20 coins_500 charges of 11-19 nothing granted, 5 refunded by the App Store that evening.
    static let detour = "20261119-1641-b5ce28"
    /// The double grants of 10-25 on the App Store, 16:00 to 19:40.
    static let doubleGrant = "20261025-1601-cbf2d5"

    /// Runs `incidents` with `arguments` on `database`; what it printed, after checking it exited 0.
    private func incidents(_ arguments: [String], on database: String) async throws -> String {
        let (termination, output) = try await ChildProcess.run(try #require(builtExecutable), ["incidents"] + arguments + ["--db", database])
        #expect(termination == .exit(0), "\(arguments): \(output)")
        return output
    }

    @Test("before a rebuild none is kept and the list says how to take them; --rebuild takes the detour and the double grants with their figures")
    func rebuildThenList() async throws {
        let directory = try TemporaryDirectory()
        let database = try SampleLogs.get().copiedDatabase(in: directory)
        let at = ["--at", Self.demoTime]
        let empty = try await incidents(at, on: database)
        #expect(
            empty == "no incident records kept from 2026-10-21T00:00:00Z to 2026-11-20T00:01:00Z; run it with --rebuild to take them from the "
                + "events (the alerts evaluated each minute from --from to --at)\n")
        let table = try await incidents(at + ["--rebuild"], on: database)
        #expect(
            table.hasPrefix(
                "rebuilt 7 incident records from the alerts evaluated each minute from 2026-10-21T00:00:00Z to 2026-11-20T00:00:00Z; removed 0 no longer found\n"
            ), "\(table)")
        let rows = table.split(separator: "\n").map(String.init)
        let detour = try #require(rows.first { $0.hasPrefix(Self.detour) }, "\(table)")
        #expect(
            detour.contains("2026-11-19T16:41:00Z") && detour.contains("resolved  PAGE") && detour.contains("2026-11-19T20:16:00Z")
                && detour.contains("purchase: coins_500"), "\(detour)")
        #expect(detour.contains("15 charges, 74.85 USD"), "\(detour)")
        let doubleGrant = try #require(rows.first { $0.hasPrefix(Self.doubleGrant) }, "\(table)")
        #expect(doubleGrant.contains("PAGE, paged 2026-10-25T16:"), "\(doubleGrant)")
        #expect(doubleGrant.contains("58 grants given away (not paid for), 487.42 USD (in full)"), "\(doubleGrant)")

        let json = try await incidents(at + ["--format", "json"], on: database)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["from"] as? String == "2026-10-21T00:00:00Z" && object["to"] as? String == "2026-11-20T00:01:00Z")
        let records = try #require(object["incidents"] as? [[String: Any]])
        let detourJSON = try #require(records.first { $0["id"] as? String == Self.detour })
        // Its alerts stopped when no new charge went ungranted; it stays resolved, not settled, while 15 are owed.
        #expect(detourJSON["status"] as? String == "resolved" && detourJSON["endsAt"] as? String == "2026-11-19T20:16:00Z")
        let owed = try #require(detourJSON["owed"] as? [String: Any])
        #expect(owed["count"] as? Int == 15 && (owed["worth"] as? [String: Double])?["USD"] == 74.85, "\(owed)")
        let grantsJSON = try #require(records.first { $0["id"] as? String == Self.doubleGrant })
        let cost = try #require(grantsJSON["cost"] as? [String: Any])
        let givenAway = try #require(cost["givenAway"] as? [String: Any])
        #expect(givenAway["count"] as? Int == 58 && (givenAway["worth"] as? [String: Double])?["USD"] == 487.42, "\(cost)")
        #expect(grantsJSON["status"] as? String == "settled" && grantsJSON["severity"] as? String == "page")
        #expect((grantsJSON["products"] as? [String])?.contains("coins_500") == true)
        #expect((grantsJSON["alerts"] as? [[String: Any]])?.count == 5)

        let csv = try await incidents(at + ["--format", "csv"], on: database).split(separator: "\n")
        #expect(
            csv.first == "id,app,status,severity,pagedAt,startsAt,endsAt,actions,products,cost,owedCharges,owedWorth,acknowledgedBy,acknowledgedAt")
        #expect(csv.count == records.count + 1)
        #expect(
            csv.contains {
                $0.hasPrefix("\(Self.detour),,resolved,page,2026-11-19T17:04:00Z,2026-11-19T16:41:00Z,2026-11-19T20:16:00Z,purchase,coins_500,")
                    && $0.contains(",15,74.85 USD,,")
            })
    }

    @Test("--status keeps the records of the statuses named, repeated or comma-separated; an unknown one is refused naming --status")
    func statusFilters() async throws {
        let directory = try TemporaryDirectory()
        let database = try SampleLogs.get().copiedDatabase(in: directory)
        let range = ["--from", "2026-10-25T00:00:00Z", "--at", "2026-10-27T00:00:00Z"]
        _ = try await incidents(range + ["--rebuild"], on: database)
        let all = try await incidents(range + ["--format", "csv"], on: database)
        #expect(all.contains(Self.doubleGrant))
        let settled = try await incidents(range + ["--status", "settled", "--format", "csv"], on: database)
        #expect(settled.contains(Self.doubleGrant))
        let unsettled = try await incidents(range + ["--status", "open,resolved"], on: database)
        #expect(
            unsettled
                == "no open or resolved incident records kept from 2026-10-25T00:00:00Z to 2026-10-27T00:01:00Z; run it with --rebuild to take them from the events (the alerts evaluated each minute from --from to --at)\n"
        )
        let repeated = try await incidents(range + ["--status", "open", "--status", "settled", "--format", "csv"], on: database)
        #expect(repeated == settled)
        let (termination, refused) = try await ChildProcess.run(
            try #require(builtExecutable), ["incidents", "--db", database, "--status", "closed"])
        #expect(termination == .exit(64) && refused.contains("--status: expected open, resolved or settled"), "\(refused)")
    }

    @Test("acknowledge keeps the owner and note, the list shows the owner and a rebuild keeps them; a bad owner or note is refused naming it")
    func acknowledgeThenList() async throws {
        let directory = try TemporaryDirectory()
        let database = try SampleLogs.get().copiedDatabase(in: directory)
        let executable = try #require(builtExecutable)
        let range = ["--from", "2026-11-19T12:00:00Z", "--at", Self.demoTime]
        _ = try await incidents(range + ["--rebuild"], on: database)
        let acknowledged = try await incidents(
            ["acknowledge", Self.detour, "--owner", "Ana (payments on-call)", "--note", "grant server fixed", "--at", "2026-11-19T20:05:00Z"],
            on: database)
        #expect(
            acknowledged.hasPrefix("\(Self.detour) acknowledged by Ana (payments on-call) at 2026-11-19T20:05:00Z: \"grant server fixed\"\n"),
            "\(acknowledged)")
        for listing in [try await incidents(range, on: database), try await incidents(range + ["--rebuild"], on: database)] {
            let row = try #require(listing.split(separator: "\n").first { $0.hasPrefix(Self.detour) }, "\(listing)")
            #expect(row.hasSuffix("Ana (payments on-call)"), "\(row)")
        }
        let json = try await incidents(range + ["--format", "json"], on: database)
        #expect(json.contains(#""acknowledgement":{"owner":"Ana (payments on-call)","note":"grant server fixed","at":"2026-11-19T20:05:00Z"}"#))
        for (arguments, message) in [
            (["--owner", "Ana\u{202E}gnp"], "error: --owner: expected who takes it on"),
            (["--owner", "Ana\nBob"], "error: --owner: expected who takes it on"),
            (["--owner", "Ana", "--note", String(repeating: "x", count: 1001)], "error: --note: expected at most 1000 printable characters"),
            (["--owner", " "], "error: --owner: expected who takes it on"),
        ] {
            let (termination, output) = try await ChildProcess.run(
                executable, ["incidents", "acknowledge", Self.detour, "--db", database] + arguments)
            #expect(termination == .exit(1) && output.hasPrefix(message), "\(arguments): \(output)")
        }
        let (unknown, output) = try await ChildProcess.run(
            executable, ["incidents", "acknowledge", "20261119-1642-000000", "--db", database, "--owner", "Ana"])
        #expect(unknown == .exit(1) && output.hasPrefix("error: no incident 20261119-1642-000000 is kept"), "\(output)")
        let (badID, idOutput) = try await ChildProcess.run(executable, ["incidents", "acknowledge", "../etc", "--db", database, "--owner", "Ana"])
        #expect(badID == .exit(64) && idOutput.contains("<id>: expected an incident id"), "\(idOutput)")
    }
}
