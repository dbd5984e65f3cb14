import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIServer
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// `/v1/maintenance`: declared and removed with an admin key, listed with a read key too; never declared
/// without admin keys configured (a window silences burn-rate alerts); a bad declaration names its field
/// and stores nothing; too many windows, or too much of 28 days, are refused.
@Suite struct MaintenanceRouteTests {
    let directory: TemporaryDirectory
    let store: SQLiteBucketStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
    }

    private let key: HTTPFields = [.authorization: "Bearer admin-secret", .contentType: "application/json"]
    private let readKey: HTTPFields = [.authorization: "Bearer read-secret", .contentType: "application/json"]

    private func withKeys(_ configuration: inout ServerConfiguration) {
        configuration.readKeys = AccessKeys(["read-secret"])
        configuration.adminKeys = AccessKeys(["admin-secret"])
        configuration.ingestKeys = AccessKeys(["ingest-public"])
    }

    private func json(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    /// Posts `body` with the admin key: a 400 whose error starts with `message`, and nothing stored.
    private func expectRefused(_ body: String, _ message: String) async throws {
        let app = makeApp(store: store) { withKeys(&$0) }
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/maintenance", method: .post, headers: key, body: json(body)) { response in
                #expect(response.status == .badRequest)
                let error = bodyJSON(response.body)["error"] as? String ?? ""
                #expect(error.hasPrefix(message), "\(error)")
            }
        }
        #expect(try await MaintenanceWindowRepository(store.sql).windows().isEmpty)
    }

    @Test func aWindowIsDeclaredListedWithThePolicysAndRemoved() async throws {
        let policy = try SLOPolicy(yaml: "maintenance: [{from: 2026-12-06T03:00:00Z, duration: 30m, rrule: 'FREQ=WEEKLY;BYDAY=SU', reason: deploy}]")
        let app = makeApp(store: store) {
            withKeys(&$0)
            $0.alertPolicy = policy
        }
        try await app.test(.router) { client in
            let declared = try await client.execute(
                uri: "/v1/maintenance", method: .post, headers: key,
                body: json(#"{"from":"2026-12-01T02:00:00Z","to":"2026-12-01T04:00:00Z","actions":["purchase"],"reason":"App Store maintenance"}"#))
            #expect(declared.status == .created, "\(String(buffer: declared.body))")
            let id = try #require(bodyJSON(declared.body)["id"] as? String)
            #expect(id.hasPrefix("mw-") && bodyJSON(declared.body)["actions"] as? [String] == ["purchase"])
            #expect(try await MaintenanceWindowRepository(store.sql).windows().map(\.reason) == ["App Store maintenance"])
            try await client.execute(uri: "/v1/maintenance", method: .get, headers: readKey) { response in
                #expect(response.status == .ok)
                let windows = bodyJSON(response.body)["windows"] as? [[String: Any]] ?? []
                #expect(windows.map { $0["id"] as? String } == [id, "policy-1"])
                #expect(windows.map { $0["source"] as? String } == ["stored", "policy"])
                #expect(windows.last?["rrule"] as? String == "FREQ=WEEKLY;BYDAY=SU")
            }
            try await client.execute(uri: "/v1/maintenance", method: .get) { #expect($0.status == .unauthorized, "listing needs the key too") }
            let named = #"{"id":"apple-2026-12","from":"2026-12-01T02:00:00Z","duration":"1h","reason":"Apple's notice"}"#
            try await client.execute(uri: "/v1/maintenance", method: .post, headers: key, body: json(named)) { #expect($0.status == .created) }
            try await client.execute(uri: "/v1/maintenance", method: .post, headers: key, body: json(named)) { response in
                #expect(response.status == .conflict)
                #expect(
                    bodyJSON(response.body)["error"] as? String == "a window named apple-2026-12 exists; DELETE /v1/maintenance/apple-2026-12 first")
            }
            try await client.execute(uri: "/v1/maintenance/apple-2026-12", method: .delete, headers: key) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/maintenance/policy-1", method: .delete, headers: key) { response in
                #expect(response.status == .notFound)
                #expect(bodyJSON(response.body)["error"] as? String == "policy-1 is declared in the policy file: remove it there")
            }
            try await client.execute(uri: "/v1/maintenance/\(id)", method: .delete, headers: key) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/maintenance/\(id)", method: .delete, headers: key) { #expect($0.status == .notFound) }
            #expect(try await MaintenanceWindowRepository(store.sql).windows().isEmpty)
        }
    }

    @Test(arguments: [
        (#"{"from":"2026-12-01T02:00:00Z","reason":"x"}"#, "to: give the end (to) or the length (duration)"),
        (#"{"from":"2026-12-01T02:00:00Z","duration":"2h"}"#, "reason: required field is missing"),
        (
            #"{"from":"2026-12-01T02:00:00Z","duration":"2h","reason":"x","actions":"purchase"}"#,
            "actions: Expected to decode Array<Any> but found a string instead."
        ),
        (
            #"{"from":"2026-12-01T02:00:00Z","duration":"2h","rrule":"FREQ=DAILY;BYDAY=MO","reason":"x"}"#,
            "rrule: BYDAY is understood with FREQ=WEEKLY only"
        ),
        (#"{"from":"2026-12-01T02:00:00Z","duration":"2h","reason":"x","app":""}"#, "app: must not be empty"),
        ("[1]", "expected a JSON object such as"),
        (#"{"id":"policy-1","from":"2026-12-01T02:00:00Z","duration":"2h","reason":"x"}"#, "id: expected 1 to 64 letters"),
    ])
    func aBadDeclarationNamesItsFieldAndStoresNothing(_ body: String, _ message: String) async throws {
        try await expectRefused(body, message)
    }

    /// A browser keeps the key for the pages and sends it with another site's form: a form's body
    /// (text/plain) and a request the browser says is cross-site are refused, and nothing is stored.
    @Test func anotherSitesPageCannotDeclareOrRemoveAWindow() async throws {
        try await MaintenanceWindowRepository(store.sql).record(
            MaintenanceWindow(id: "mw-1", startSeconds: 1_795_000_000, endSeconds: 1_795_003_600, reason: "kept"))
        let app = makeApp(store: store) { withKeys(&$0) }
        let form = #"{"from":"now","duration":"7d","reason":"x","p":"="}"#
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/maintenance", method: .post, headers: [.authorization: "Bearer admin-secret", .contentType: "text/plain"], body: json(form)
            ) { #expect($0.status == .unsupportedMediaType) }
            let crossSite: HTTPFields = [
                .authorization: "Bearer admin-secret", .contentType: "application/json", HTTPField.Name("Sec-Fetch-Site")!: "cross-site",
            ]
            try await client.execute(uri: "/v1/maintenance", method: .post, headers: crossSite, body: json(form)) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/v1/maintenance/mw-1", method: .delete, headers: crossSite) { #expect($0.status == .forbidden) }
        }
        #expect(try await MaintenanceWindowRepository(store.sql).windows().map(\.id) == ["mw-1"])
    }

    struct Access: Sendable, CustomTestStringConvertible {
        var testDescription: String
        /// The key presented, if any.
        var key: String?
        var configure: @Sendable (inout ServerConfiguration) -> Void
        var get: HTTPResponse.Status
        var post: HTTPResponse.Status
        var delete: HTTPResponse.Status
    }

    static let accesses: [Access] = {
        let all: @Sendable (inout ServerConfiguration) -> Void = {
            $0.readKeys = AccessKeys(["read-secret"])
            $0.adminKeys = AccessKeys(["admin-secret"])
            $0.ingestKeys = AccessKeys(["ingest-public"])
        }
        let noAdmin: @Sendable (inout ServerConfiguration) -> Void = { $0.readKeys = AccessKeys(["read-secret"]) }
        let adminOnly: @Sendable (inout ServerConfiguration) -> Void = { $0.adminKeys = AccessKeys(["admin-secret"]) }
        return [
            Access(testDescription: "the admin key", key: "admin-secret", configure: all, get: .ok, post: .created, delete: .ok),
            Access(testDescription: "a read key lists only", key: "read-secret", configure: all, get: .ok, post: .forbidden, delete: .forbidden),
            Access(
                testDescription: "the ingest key is no read key", key: "ingest-public", configure: all, get: .unauthorized, post: .unauthorized,
                delete: .unauthorized),
            Access(testDescription: "no key", key: nil, configure: all, get: .unauthorized, post: .unauthorized, delete: .unauthorized),
            Access(
                testDescription: "a read key without admin keys configured", key: "read-secret", configure: noAdmin, get: .ok, post: .forbidden,
                delete: .forbidden),
            Access(testDescription: "nothing configured at all", key: nil, configure: { _ in }, get: .ok, post: .forbidden, delete: .forbidden),
            Access(
                testDescription: "reads open, no key, admin keys configured", key: nil, configure: adminOnly, get: .ok, post: .forbidden,
                delete: .forbidden),
            Access(
                testDescription: "reads open, a wrong key, admin keys configured", key: "guess", configure: adminOnly, get: .ok, post: .forbidden,
                delete: .forbidden),
        ]
    }()

    /// Who may list, declare and remove: a read key (the one Prometheus scrapes with) only lists; only an
    /// admin key changes anything, and without admin keys nothing does.
    @Test(arguments: accesses)
    func onlyAnAdminKeyDeclaresOrRemoves(_ access: Access) async throws {
        try await MaintenanceWindowRepository(store.sql).record(
            MaintenanceWindow(id: "mw-1", startSeconds: 1_795_000_000, endSeconds: 1_795_003_600, reason: "kept"))
        let app = makeApp(store: store, configure: access.configure)
        var given: HTTPFields = [.contentType: "application/json"]
        if let key = access.key { given[.authorization] = "Bearer \(key)" }
        let headers = given
        let body = #"{"from":"2030-12-01T02:00:00Z","duration":"2h","reason":"silence them"}"#
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/maintenance", method: .get, headers: headers) { #expect($0.status == access.get) }
            try await client.execute(uri: "/v1/maintenance", method: .post, headers: headers, body: json(body)) { response in
                #expect(response.status == access.post, "\(String(buffer: response.body))")
                if response.status == .forbidden {
                    #expect((bodyJSON(response.body)["error"] as? String ?? "").contains("needs an admin key"))
                }
            }
            try await client.execute(uri: "/v1/maintenance/mw-1", method: .delete, headers: headers) { #expect($0.status == access.delete) }
        }
        let kept = try await MaintenanceWindowRepository(store.sql).windows().map(\.reason)
        #expect(kept == (access.post == .created ? ["silence them"] : ["kept"]))
    }

    @Test(arguments: [
        (#"{"from":"2030-12-01T02:00:00Z","duration":"1d","rrule":"FREQ=DAILY","reason":"x"}"#, "duration: each occurrence must end before"),
        (
            #"{"from":"2030-12-01T02:00:00Z","duration":"1d","rrule":"FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU","reason":"x"}"#,
            "duration: each occurrence must end before"
        ),
        (#"{"from":"2030-12-01T02:00:00Z","duration":"28d","rrule":"FREQ=MONTHLY","reason":"x"}"#, "duration: each occurrence must end before"),
        (
            #"{"from":"2030-12-01T02:00:00Z","duration":"1h","reason":"\u0000 nul"}"#,
            "reason: must be printable text, got the control character U+0000"
        ),
        (#"{"from":"2030-12-01T02:00:00Z","duration":"1h","reason":"\u200b"}"#, "reason: must say why"),
        (
            #"{"from":"2030-12-01T02:00:00Z","duration":"1h","reason":"x","rrule":"FREQ=DAILY;\#(String(repeating: "X", count: 300))"}"#,
            "rrule: expected at most 256 bytes"
        ),
        (#"{"from":"2030-12-01T02:00:00Z","duration":"1h","reason":"x","app":"a\u0000b"}"#, "app: "),
        (#"{"from":"2030-12-01T02:00:00Z","duration":"1h","reason":"x","actions":["purchase\u0000"]}"#, "actions[0]: must name an action"),
        (#"{"from":"2030-12-01T02:00:00Z","duration":"1h","reason":"x","force":"yes"}"#, "force: "),
    ])
    func aWindowThatSilencesTooMuchOrSaysNothingIsRefused(_ body: String, _ message: String) async throws {
        try await expectRefused(body, message)
    }

    /// More than a quarter of some 28 days is refused with 422 unless forced; the 201st window with 409.
    @Test func theShareOfTwentyEightDaysAndTheNumberOfWindowsAreBounded() async throws {
        let app = makeApp(store: store) { withKeys(&$0) }
        try await app.test(.router) { client in
            let weekly = #"{"id":"weekly","from":"2030-12-01T00:00:00Z","duration":"2d","rrule":"FREQ=WEEKLY","reason":"deploys"}"#
            try await client.execute(uri: "/v1/maintenance", method: .post, headers: key, body: json(weekly)) { response in
                #expect(response.status == .unprocessableContent)
                let error = bodyJSON(response.body)["error"] as? String ?? ""
                #expect(
                    error.hasPrefix("with it, maintenance would cover 8d of the 28 days from ")
                        && error.hasSuffix(
                            "(29 %); at most 25 % of any 28 days may be maintenance without force; send \"force\": true to declare it anyway"),
                    "\(error)")
            }
            #expect(try await MaintenanceWindowRepository(store.sql).windows().isEmpty)
            let forced = weekly.dropLast() + #","force":true}"#
            try await client.execute(uri: "/v1/maintenance", method: .post, headers: key, body: json(String(forced))) {
                #expect($0.status == .created)
            }
            // Any other window, another app's too, adds to the forced one's 29 %.
            let other = #"{"from":"2030-12-03T00:00:00Z","duration":"1h","rrule":"FREQ=WEEKLY","reason":"x","app":"com.example.a"}"#
            try await client.execute(uri: "/v1/maintenance", method: .post, headers: key, body: json(other)) {
                #expect($0.status == .unprocessableContent)
            }
        }
        _ = try await MaintenanceWindowRepository(store.sql).remove(id: "weekly")
        for index in 0..<MaintenanceScheduling.maximumStoredWindows {
            try await MaintenanceWindowRepository(store.sql).record(
                MaintenanceWindow(
                    id: "mw-\(index)", startSeconds: 1_000_000 + Int64(index) * 3600, endSeconds: 1_000_060 + Int64(index) * 3600, reason: "old"))
        }
        try await app.test(.router) { client in
            let one = #"{"from":"2030-12-01T00:00:00Z","duration":"1h","reason":"one more"}"#
            try await client.execute(uri: "/v1/maintenance", method: .post, headers: key, body: json(one)) { response in
                #expect(response.status == .conflict)
                #expect(
                    bodyJSON(response.body)["error"] as? String
                        == "200 maintenance windows are kept, the most (200): remove one before declaring another")
            }
        }
        #expect(try await MaintenanceWindowRepository(store.sql).windows().count == MaintenanceScheduling.maximumStoredWindows)
    }
}
