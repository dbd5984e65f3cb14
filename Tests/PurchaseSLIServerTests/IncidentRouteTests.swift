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

/// `/v1/incidents`: the records listed with a read key, in the JSON `incidents --format json` prints;
/// acknowledged with an admin key only, never without admin keys configured; a bad id, owner or note is
/// refused naming it, before anything is kept.
@Suite struct IncidentRouteTests {
    let directory: TemporaryDirectory
    let store: SQLiteBucketStore
    static let id = "20261119-1641-b5ce28"

    /// A store keeping one record: a ChargedNotGranted ticket of 2026-11-19 16:41 still firing, 3 charges owed.
    init() async throws {
        directory = try TemporaryDirectory()
        store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        try await keepAChargedNotGrantedTicket(id: Self.id, in: store)
    }

    private func withKeys(_ configuration: inout ServerConfiguration) {
        configuration.readKeys = AccessKeys(["read-secret"])
        configuration.adminKeys = AccessKeys(["admin-secret"])
        configuration.ingestKeys = AccessKeys(["ingest-public"])
    }

    private static func headers(_ key: String?) -> HTTPFields {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let key { headers[.authorization] = "Bearer \(key)" }
        return headers
    }

    private static let range = "from=2026-11-01T00:00:00Z&to=2026-12-01T00:00:00Z"

    @Test func theRecordsAreListedWithAReadKeyInTheCommandsJSON() async throws {
        let app = makeApp(store: store) { withKeys(&$0) }
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/incidents?\(Self.range)", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/v1/incidents?\(Self.range)", method: .get, headers: Self.headers("ingest-public")) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: "/v1/incidents?\(Self.range)", method: .get, headers: Self.headers("read-secret")) { response in
                #expect(response.status == .ok)
                let object = bodyJSON(response.body)
                #expect(object["from"] as? String == "2026-11-01T00:00:00Z" && object["statuses"] is NSNull && object["app"] is NSNull)
                let records = object["incidents"] as? [[String: Any]] ?? []
                #expect(records.map { $0["id"] as? String } == [Self.id])
                let record = try #require(records.first)
                #expect(
                    Set(record.keys) == [
                        "id", "app", "status", "severity", "pagedAt", "firstBadMinute", "startsAt", "endsAt", "readAt", "actions", "products", "cost",
                        "losses", "owed", "acknowledgement", "alerts",
                    ])
                #expect(record["status"] as? String == "open" && record["severity"] as? String == "ticket" && record["pagedAt"] is NSNull)
                #expect((record["owed"] as? [String: Any])?["count"] as? Int == 3)
                #expect(((record["cost"] as? [String: Any])?["ungranted"] as? [String: Any])?["worth"] as? [String: Double] == ["USD": 14.97])
                let alert = try #require((record["alerts"] as? [[String: Any]])?.first)
                #expect(alert["kind"] as? String == "ChargedNotGranted")
                #expect(alert["labels"] as? [String: String] == ["actionType": "purchase", "store": "apple", "productID": "coins_500"])
                #expect(alert["severityChanges"] as? [[String: String]] == [["at": "2026-11-19T16:41:00Z", "severity": "ticket"]])
            }
            try await client.execute(uri: "/v1/incidents?\(Self.range)&status=settled,resolved", method: .get, headers: Self.headers("admin-secret"))
            {
                response in
                #expect(response.status == .ok)
                #expect(bodyJSON(response.body)["statuses"] as? [String] == ["resolved", "settled"])
                #expect((bodyJSON(response.body)["incidents"] as? [Any])?.isEmpty == true)
            }
            for (query, message) in [
                ("status=closed", "status: expected open, resolved or settled"), ("from=yesterday", "from: expected"),
                ("from=2026-12-01&to=2026-11-01", "from must be before to"), ("app=", "app: must not be empty"),
            ] {
                try await client.execute(uri: "/v1/incidents?\(query)", method: .get, headers: Self.headers("read-secret")) { response in
                    #expect(
                        response.status == .badRequest && errorMessage(response.body).hasPrefix(message), "\(query): \(errorMessage(response.body))")
                }
            }
        }
    }

    struct Access: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var key: String?
        var configure: @Sendable (inout ServerConfiguration) -> Void
        var status: HTTPResponse.Status
    }

    @Test(arguments: [
        Access(
            testDescription: "no key", key: nil,
            configure: {
                $0.readKeys = AccessKeys(["read-secret"])
                $0.adminKeys = AccessKeys(["admin-secret"])
            }, status: .unauthorized),
        Access(
            testDescription: "an ingest key", key: "ingest-public",
            configure: {
                $0.readKeys = AccessKeys(["read-secret"])
                $0.adminKeys = AccessKeys(["admin-secret"])
                $0.ingestKeys = AccessKeys(["ingest-public"])
            }, status: .unauthorized),
        Access(
            testDescription: "a read key", key: "read-secret",
            configure: {
                $0.readKeys = AccessKeys(["read-secret"])
                $0.adminKeys = AccessKeys(["admin-secret"])
            }, status: .forbidden),
        Access(
            testDescription: "the admin key", key: "admin-secret",
            configure: {
                $0.readKeys = AccessKeys(["read-secret"])
                $0.adminKeys = AccessKeys(["admin-secret"])
            }, status: .ok),
        Access(testDescription: "no admin keys configured, no key on loopback", key: nil, configure: { _ in }, status: .forbidden),
        Access(
            testDescription: "no admin keys configured, a read key", key: "read-secret", configure: { $0.readKeys = AccessKeys(["read-secret"]) },
            status: .forbidden),
    ])
    func onlyAnAdminKeyAcknowledges(_ access: Access) async throws {
        let app = makeApp(store: store, configure: access.configure)
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/incidents/\(Self.id)/acknowledge", method: .post, headers: Self.headers(access.key),
                body: ByteBuffer(string: #"{"owner":"Ana","note":"on it"}"#)
            ) { response in
                #expect(response.status == access.status, "\(String(buffer: response.body))")
                if response.status == .forbidden { #expect(errorMessage(response.body).contains("acknowledging incidents needs an admin key")) }
                if response.status == .ok {
                    #expect((bodyJSON(response.body)["acknowledgement"] as? [String: Any])?["owner"] as? String == "Ana")
                }
            }
        }
        let kept = try await IncidentRepository(store.sql).incident(
            app: "", id: Self.id, startSeconds: RFC3339.parseMillis("2026-11-19T16:41:00Z")! / 1000)?.acknowledgement
        #expect(kept.map { "\($0.owner): \($0.note)" } == (access.status == .ok ? "Ana: on it" : nil))
    }

    @Test(arguments: [
        ("20261119-1641-b5ce28", #"{"owner":"Ana\u202egnp"}"#, HTTPResponse.Status.badRequest, "owner: expected who takes it on"),
        ("20261119-1641-b5ce28", #"{"owner":"Ana\nBob"}"#, .badRequest, "owner: expected who takes it on"),
        ("20261119-1641-b5ce28", #"{"owner":"Ana","note":"\#(String(repeating: "x", count: 1001))"}"#, .badRequest, "note: expected at most 1000"),
        ("20261119-1641-b5ce28", #"{"note":"on it"}"#, .badRequest, "owner: required field is missing"),
        ("20261119-1641-b5ce28", #"{"owner":7}"#, .badRequest, "owner: expected a string"),
        ("20261119-1641-b5ce28", "[1]", .badRequest, "expected a JSON object such as"),
        ("..%2Fetc", #"{"owner":"Ana"}"#, .badRequest, "id: expected an incident id"),
        ("20261119-1642-000000", #"{"owner":"Ana"}"#, .notFound, "no incident 20261119-1642-000000 is kept"),
    ])
    func aBadAcknowledgementNamesItsFieldAndKeepsNothing(id: String, body: String, status: HTTPResponse.Status, message: String) async throws {
        let app = makeApp(store: store) { withKeys(&$0) }
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/incidents/\(id)/acknowledge", method: .post, headers: Self.headers("admin-secret"), body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == status)
                #expect(errorMessage(response.body).hasPrefix(message), "\(errorMessage(response.body))")
            }
        }
        #expect(
            try await IncidentRepository(store.sql).incidents(app: nil, fromSeconds: 0, toSeconds: .max, statuses: nil).allSatisfy {
                $0.acknowledgement == nil
            })
    }

    @Test func anotherSitesPageCannotAcknowledge() async throws {
        let app = makeApp(store: store) { withKeys(&$0) }
        try await app.test(.router) { client in
            var crossSite = Self.headers("admin-secret")
            crossSite[HTTPField.Name("Sec-Fetch-Site")!] = "cross-site"
            try await client.execute(
                uri: "/v1/incidents/\(Self.id)/acknowledge", method: .post, headers: crossSite, body: ByteBuffer(string: #"{"owner":"Ana"}"#)
            ) { #expect($0.status == .forbidden) }
            try await client.execute(
                uri: "/v1/incidents/\(Self.id)/acknowledge", method: .post,
                headers: [.authorization: "Bearer admin-secret", .contentType: "text/plain"],
                body: ByteBuffer(string: #"{"owner":"Ana"}"#)
            ) { #expect($0.status == .unsupportedMediaType) }
        }
        #expect(
            try await IncidentRepository(store.sql).incidents(app: nil, fromSeconds: 0, toSeconds: .max, statuses: nil).allSatisfy {
                $0.acknowledgement == nil
            })
    }
}
