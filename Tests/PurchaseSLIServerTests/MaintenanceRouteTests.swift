import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIServer
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

/// `/v1/maintenance`: declared, listed and removed with a read key; never without keys configured (a window
/// silences burn-rate alerts); a bad declaration names its field and stores nothing.
@Suite struct MaintenanceRouteTests {
    let directory: TemporaryDirectory
    let store: SQLiteBucketStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
    }

    private let key: HTTPFields = [.authorization: "Bearer read-secret", .contentType: "application/json"]

    private func json(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    @Test func aWindowIsDeclaredListedWithThePolicysAndRemoved() async throws {
        let policy = try SLOPolicy(yaml: "maintenance: [{from: 2026-12-06T03:00:00Z, duration: 30m, rrule: 'FREQ=WEEKLY;BYDAY=SU', reason: deploy}]")
        let app = makeApp(store: store) {
            $0.readKeys = AccessKeys(["read-secret"])
            $0.alertPolicy = policy
        }
        try await app.test(.router) { client in
            let declared = try await client.execute(
                uri: "/v1/maintenance", method: .post, headers: key,
                body: json(#"{"from":"2026-12-01T02:00:00Z","to":"2026-12-01T04:00:00Z","actions":["purchase"],"reason":"App Store maintenance"}"#))
            #expect(declared.status == .created, "\(String(buffer: declared.body))")
            let id = try #require(bodyJSON(declared.body)["id"] as? String)
            #expect(id.hasPrefix("mw-") && bodyJSON(declared.body)["actions"] as? [String] == ["purchase"])
            #expect(try store.maintenanceWindows().map(\.reason) == ["App Store maintenance"])
            try await client.execute(uri: "/v1/maintenance", method: .get, headers: key) { response in
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
            #expect(try store.maintenanceWindows().isEmpty)
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
        let app = makeApp(store: store) { $0.readKeys = AccessKeys(["read-secret"]) }
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/maintenance", method: .post, headers: key, body: json(body)) { response in
                #expect(response.status == .badRequest)
                let error = bodyJSON(response.body)["error"] as? String ?? ""
                #expect(error.hasPrefix(message), "\(error)")
            }
        }
        #expect(try store.maintenanceWindows().isEmpty)
    }

    /// A browser keeps the key for the pages and sends it with another site's form: a form's body
    /// (text/plain) and a request the browser says is cross-site are refused, and nothing is stored.
    @Test func anotherSitesPageCannotDeclareOrRemoveAWindow() async throws {
        try store.record(MaintenanceWindow(id: "mw-1", startSeconds: 1_795_000_000, endSeconds: 1_795_003_600, reason: "kept"))
        let app = makeApp(store: store) { $0.readKeys = AccessKeys(["read-secret"]) }
        let form = #"{"from":"now","duration":"7d","reason":"x","p":"="}"#
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/maintenance", method: .post, headers: [.authorization: "Bearer read-secret", .contentType: "text/plain"], body: json(form)
            ) { #expect($0.status == .unsupportedMediaType) }
            let crossSite: HTTPFields = [
                .authorization: "Bearer read-secret", .contentType: "application/json", HTTPField.Name("Sec-Fetch-Site")!: "cross-site",
            ]
            try await client.execute(uri: "/v1/maintenance", method: .post, headers: crossSite, body: json(form)) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/v1/maintenance/mw-1", method: .delete, headers: crossSite) { #expect($0.status == .forbidden) }
        }
        #expect(try store.maintenanceWindows().map(\.id) == ["mw-1"])
    }

    @Test func withoutReadKeysNoWindowCanBeDeclaredOrRemoved() async throws {
        try store.record(MaintenanceWindow(id: "mw-1", startSeconds: 1_795_000_000, endSeconds: 1_795_003_600, reason: "kept"))
        let app = makeApp(store: store)
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/maintenance", method: .post, headers: [.contentType: "application/json"],
                body: json(#"{"from":"2026-12-01T02:00:00Z","duration":"2h","reason":"silence them"}"#)
            ) { response in
                #expect(response.status == .forbidden)
                #expect((bodyJSON(response.body)["error"] as? String ?? "").contains("needs read keys"))
            }
            try await client.execute(uri: "/v1/maintenance/mw-1", method: .delete) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/v1/maintenance", method: .get) { #expect($0.status == .ok, "listing is a read like any other") }
        }
        #expect(try store.maintenanceWindows().map(\.id) == ["mw-1"])
    }
}
