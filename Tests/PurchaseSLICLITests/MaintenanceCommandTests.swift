import Foundation
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// `purchase-sli maintenance add|list|remove` as a person runs them, and what they change: `alerts` quiet
/// inside the window, the on-call page shading it and naming it beside the budget.
@Suite struct MaintenanceCommandTests {
    @Test func aWindowAddedSilencesTheBurnAndShowsOnThePagesUntilRemoved() async throws {
        let executable = try #require(builtExecutable)
        let directory = try TemporaryDirectory()
        let path = directory.file("db.sqlite")
        _ = try await SQLiteBucketStore(path: path).record(MaintenanceAlertTests.events(), receivedAtMillis: 0)
        let at = ["--at", "2026-11-19T12:30:00Z"]
        let (_, before) = try await ChildProcess.run(executable, ["alerts", "--db", path] + at)
        #expect(before.contains("PAGE") && before.contains("purchase: success rate"), "\(before)")

        let (added, addOutput) = try await ChildProcess.run(
            executable,
            [
                "maintenance", "add", "--db", path, "--from", "2026-11-19T11:50:00Z", "--to", "2026-11-19T13:30:00Z", "--actions", "purchase",
                "--reason", "receipt-verification migration",
            ])
        #expect(added == .exit(0), "\(addOutput)")
        let id = try #require(addOutput.split(separator: "\n").dropFirst().first?.split(separator: " ").first.map(String.init))
        #expect(id.hasPrefix("mw-") && addOutput.contains("a correction: budgets and burn-rate alerts leave it out from now on"), "\(addOutput)")

        let (_, after) = try await ChildProcess.run(executable, ["alerts", "--db", path] + at)
        #expect(!after.contains("PAGE") && !after.contains("purchase: success rate"), "\(after)")
        #expect(after.contains("TICKET") && after.contains("TICKET  retry: 409s (already granted)"), "the 409 spike still fires: \(after)")

        let (_, duringPage) = try await ChildProcess.run(
            executable, ["render", "--db", path, "--at", "2026-11-19T12:30:00Z", "--range", "1d", "--out", directory.file("during")],
            currentDirectory: packageRoot)
        let during = try String(contentsOfFile: directory.file("during") + "/oncall.html", encoding: .utf8)
        #expect(
            during.contains("<strong>receipt-verification migration</strong> (\(id)) in progress until 2026-11-19T13:30:00Z: purchase left out"),
            "\(duringPage)")
        let out = directory.file("out")
        let (rendered, written) = try await ChildProcess.run(
            executable, ["render", "--db", path, "--at", "2026-11-19T14:00:00Z", "--range", "1d", "--out", out], currentDirectory: packageRoot)
        #expect(rendered == .exit(0), "\(written)")
        let page = try String(contentsOfFile: out + "/oncall.html", encoding: .utf8)
        #expect(page.contains("<rect class=\"band maintenance\""))
        #expect(page.contains("MAINTENANCE receipt-verification migration</text>"))
        #expect(!page.contains("in progress until"), "over at 14:00")
        #expect(page.contains("Maintenance left out of these figures: receipt-verification migration (2026-11-19 11:50 for 1 h 40 min)"))

        let named = ["maintenance", "add", "--db", path, "--id", "apple-2026-12", "--from", "2026-12-01", "--duration", "1h", "--reason", "Apple"]
        #expect(try await ChildProcess.run(executable, named).0 == .exit(0))
        let (secondAdd, duplicate) = try await ChildProcess.run(executable, named)
        #expect(secondAdd == .exit(1) && duplicate.contains("error: --id: a window named apple-2026-12 exists; remove it first"), "\(duplicate)")
        #expect(try await ChildProcess.run(executable, ["maintenance", "remove", "--db", path, "apple-2026-12"]).0 == .exit(0))
        let (_, listed) = try await ChildProcess.run(executable, ["maintenance", "list", "--db", path, "--format", "json"])
        #expect(
            listed.contains(#""id":"\#(id)","from":"2026-11-19T11:50:00Z","to":"2026-11-19T13:30:00Z","rrule":null,"actions":["purchase"]"#),
            "\(listed)")
        let (removed, removeOutput) = try await ChildProcess.run(executable, ["maintenance", "remove", "--db", path, id])
        #expect(removed == .exit(0) && removeOutput == "removed \(id): receipt-verification migration\n", "\(removeOutput)")
        let (_, again) = try await ChildProcess.run(executable, ["alerts", "--db", path] + at)
        #expect(again.contains("PAGE  purchase: success rate"), "removed, the burn is back: \(again)")
    }

    @Test(arguments: [
        (["--from", "2026-12-01T02:00:00Z", "--reason", "x"], "--to: give the end (to) or the length (duration)"),
        (["--from", "2026-12-01T02:00:00Z", "--duration", "2h", "--rrule", "FREQ=WEEKLY;BYDAY=FUN", "--reason", "x"], "--rrule: BYDAY takes"),
        (
            ["--from", "2026-12-01T02:00:00Z", "--duration", "2h", "--actions", "purchase,,restore", "--reason", "x"],
            "--actions: must name an action"
        ),
        (["--from", "2026-12-01T02:00:00Z", "--duration", "2h", "--app", "", "--reason", "x"], "--app: must not be empty"),
        (["--id", "nightly deploy", "--from", "2026-12-01T02:00:00Z", "--duration", "2h", "--reason", "x"], "--id: expected 1 to 64 letters"),
    ])
    func aBadWindowIsRefusedNamingTheOption(_ arguments: [String], _ message: String) async throws {
        let executable = try #require(builtExecutable)
        let directory = try TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let (status, output) = try await ChildProcess.run(executable, ["maintenance", "add", "--db", path] + arguments)
        #expect(status == .exit(1) && output.contains("error: " + message), "\(output)")
        let (_, listed) = try await ChildProcess.run(executable, ["maintenance", "list", "--db", path])
        #expect(listed == "no maintenance window\n")
    }

    /// The command checks what the route checks (one validator): a weekly window of 2 days is more than a
    /// quarter of 28 days and needs --force; a recurrence running into itself and a reason of NUL are
    /// refused even with it.
    @Test func theShareOfTwentyEightDaysNeedsForceAndBadWindowsAreRefused() async throws {
        let executable = try #require(builtExecutable)
        let directory = try TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let weekly =
            ["maintenance", "add", "--db", path, "--policy", directory.file("none.yaml"), "--from", "2030-12-01", "--duration", "2d"]
            + ["--rrule", "FREQ=WEEKLY", "--reason", "weekly deploys"]
        try "{}\n".write(toFile: directory.file("none.yaml"), atomically: true, encoding: .utf8)
        let (refused, refusal) = try await ChildProcess.run(executable, weekly)
        #expect(
            refused == .exit(1)
                && refusal.contains("(29 %); at most 25 % of any 28 days may be maintenance without force (--force declares it anyway)"), "\(refusal)"
        )
        let (forced, output) = try await ChildProcess.run(executable, weekly + ["--force"])
        #expect(forced == .exit(0), "\(output)")
        let daily = ["maintenance", "add", "--db", path, "--from", "2030-12-01", "--duration", "1d", "--rrule", "FREQ=DAILY", "--force"]
        let (overlapping, overlap) = try await ChildProcess.run(executable, daily + ["--reason", "always"])
        #expect(overlapping == .exit(1) && overlap.contains("error: --duration: each occurrence must end before the next one starts"), "\(overlap)")
        let (nul, nulRefusal) = try await ChildProcess.run(
            executable, ["maintenance", "add", "--db", path, "--from", "2030-12-01", "--duration", "1h", "--reason", "\u{7F} \u{1B}"])
        #expect(nul == .exit(1) && nulRefusal.contains("error: --reason: must be printable text, got the control character U+007F"), "\(nulRefusal)")
        let (_, listed) = try await ChildProcess.run(
            executable, ["maintenance", "list", "--db", path, "--policy", directory.file("none.yaml"), "--format", "json"])
        #expect(listed.components(separatedBy: "\"id\":").count == 2, "only the forced window is kept: \(listed)")
    }
}
