import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PurchaseSLIAnalysis
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLIStores
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLIServer

/// openapi.yaml is the router's contract: every route the router has is documented and every documented
/// path and method is a route; each answer of a table of requests (accepted, refused, unauthorized, not
/// found, on every route) has a documented status, media type and a body valid against its schema.
/// scripts/check_openapi.py does the checking (jsonschema, as the OpenSLO export's test does).
@Suite struct ApiContractTests {
    /// One request of the table: the route it calls (as openapi.yaml spells it) and what it sends.
    struct Call: Sendable {
        var method: HTTPRequest.Method
        var route: String
        var uri: String
        var key: String? = nil
        /// The key in New Relic's `Api-Key` header instead of `Authorization: Bearer`.
        var newRelicKey: String? = nil
        var contentType: String? = "application/json"
        var body: String? = nil
        var bytes: [UInt8]? = nil
    }

    /// What a call got, as check_openapi.py reads it.
    struct Exchange: Encodable {
        var method: String
        var route: String
        var status: Int
        var contentType: String?
        var body: String
    }

    static let chain = try! AppStoreSigningChain(
        validity: Date(timeIntervalSinceNow: -30 * 86_400)...Date(timeIntervalSinceNow: 30 * 86_400))

    private static func configure(_ configuration: inout ServerConfiguration) {
        configuration.ingestKeys = AccessKeys(["ingest-secret"])
        configuration.readKeys = AccessKeys(["read-secret"])
        configuration.adminKeys = AccessKeys(["admin-secret"])
        configuration.appleRootCertificates = [chain.rootDER]
        configuration.appleBundleIDs = ["com.example.app"]
        configuration.googlePackageNames = ["com.example.app"]
        configuration.googlePushTokens = AccessKeys(["push-secret"])
    }

    private static func charge(_ id: String, store: Store) -> StoreNotification {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return StoreNotification(
            store: store, notificationID: "n-\(id)", environment: "Production", appID: "com.example.app",
            type: store == .apple ? "ONE_TIME_CHARGE" : "ONE_TIME_PRODUCT_PURCHASED", kind: .charge, signedMillis: now - 60_000,
            transactionID: id, originalTransactionID: store == .apple ? id : nil, productID: "coins_100", purchaseMillis: now - 60_000,
            price: store == .apple ? 0.99 : nil, currency: store == .apple ? "USD" : nil)
    }

    /// An OTLP logs export of one purchase SLI record.
    private static let otlpExport: String = {
        let nanos = (Int64(Date().timeIntervalSince1970) - 60) * 1_000_000_000
        return #"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"\#(nanos)","eventName":"purchase_sli","attributes":["#
            + #"{"key":"eventID","value":{"stringValue":"otlp-1"}},{"key":"productID","value":{"stringValue":"coins_100"}},"#
            + #"{"key":"actionType","value":{"stringValue":"purchase"}},{"key":"resultType","value":{"stringValue":"success"}}]}]}]}]}"#
    }()

    /// The table: each route accepted, refused for its input and without its key, and not found where it names an id.
    private static func calls() throws -> [Call] {
        let window = #"{"id":"mw-contract","from":"2026-12-01T02:00:00Z","to":"2026-12-01T03:00:00Z","reason":"contract"}"#
        let newRelic = #"[{"eventType":"PurchaseSLI","eventID":"nr-1","productID":"coins_100","actionType":"purchase","resultType":"success"}]"#
        let apple = try StoreNotificationEncoder.appleBody(charge("t-apple", store: .apple), chain: chain)
        let google = try #require(StoreNotificationEncoder.googleBody(charge("t-google", store: .google)))
        return [
            Call(
                method: .post, route: "/v1/events", uri: "/v1/events", key: "ingest-secret", contentType: "application/x-ndjson",
                body: eventLine("e1")),
            Call(method: .post, route: "/v1/events", uri: "/v1/events", key: "ingest-secret", body: #"[{"eventID":"e2"}]"#),
            Call(method: .post, route: "/v1/events", uri: "/v1/events", key: "ingest-secret", body: "{"),
            Call(method: .post, route: "/v1/events", uri: "/v1/events", key: "wrong", body: "[]"),
            Call(method: .post, route: "/v1/events", uri: "/v1/events", key: "ingest-secret", contentType: "text/plain", body: "x"),
            Call(method: .post, route: "/v1/accounts/{accountID}/events", uri: "/v1/accounts/1/events", newRelicKey: "ingest-secret", body: newRelic),
            Call(method: .post, route: "/v1/accounts/{accountID}/events", uri: "/v1/accounts/1/events", newRelicKey: "ingest-secret", body: "{"),
            Call(method: .post, route: "/v1/accounts/{accountID}/events", uri: "/v1/accounts/1/events", body: newRelic),
            Call(method: .post, route: "/v1/logs", uri: "/v1/logs", key: "ingest-secret", body: otlpExport),
            Call(method: .post, route: "/v1/logs", uri: "/v1/logs", key: "ingest-secret", body: "{"),
            Call(method: .post, route: "/v1/logs", uri: "/v1/logs", key: "ingest-secret", contentType: "application/x-protobuf", body: "x"),
            Call(method: .post, route: "/v1/logs", uri: "/v1/logs", body: otlpExport),
            Call(method: .post, route: "/v1/stores/apple/notifications", uri: "/v1/stores/apple/notifications", bytes: apple),
            Call(method: .post, route: "/v1/stores/apple/notifications", uri: "/v1/stores/apple/notifications", body: #"{"signedPayload":"x"}"#),
            Call(method: .post, route: "/v1/stores/google/notifications", uri: "/v1/stores/google/notifications?token=push-secret", bytes: google),
            Call(method: .post, route: "/v1/stores/google/notifications", uri: "/v1/stores/google/notifications?token=push-secret", body: "{"),
            Call(method: .post, route: "/v1/stores/google/notifications", uri: "/v1/stores/google/notifications", bytes: google),
            Call(method: .get, route: "/v1/query", uri: "/v1/query?from=now-1h&to=now&by=productID", key: "read-secret"),
            Call(method: .get, route: "/v1/query", uri: "/v1/query?of=charges&from=now-1h&to=now&by=productID", key: "read-secret"),
            Call(method: .get, route: "/v1/query", uri: "/v1/query?from=yesterday&to=now", key: "read-secret"),
            Call(method: .get, route: "/v1/query", uri: "/v1/query?from=now-1h&to=now"),
            Call(method: .get, route: "/v1/maintenance", uri: "/v1/maintenance", key: "read-secret"),
            Call(method: .get, route: "/v1/maintenance", uri: "/v1/maintenance"),
            Call(method: .post, route: "/v1/maintenance", uri: "/v1/maintenance", key: "admin-secret", body: window),
            Call(method: .post, route: "/v1/maintenance", uri: "/v1/maintenance", key: "admin-secret", body: window),
            Call(method: .post, route: "/v1/maintenance", uri: "/v1/maintenance", key: "admin-secret", body: #"{"from":"soon"}"#),
            Call(method: .post, route: "/v1/maintenance", uri: "/v1/maintenance", key: "read-secret", body: window),
            Call(method: .delete, route: "/v1/maintenance/{id}", uri: "/v1/maintenance/mw-contract", key: "admin-secret"),
            Call(method: .delete, route: "/v1/maintenance/{id}", uri: "/v1/maintenance/mw-contract", key: "admin-secret"),
            Call(method: .delete, route: "/v1/maintenance/{id}", uri: "/v1/maintenance/mw-contract", key: "read-secret"),
            Call(method: .get, route: "/v1/incidents", uri: "/v1/incidents?from=2026-11-01&to=2026-12-01", key: "read-secret"),
            Call(method: .get, route: "/v1/incidents", uri: "/v1/incidents?from=later", key: "read-secret"),
            Call(method: .get, route: "/v1/incidents", uri: "/v1/incidents"),
            Call(
                method: .post, route: "/v1/incidents/{id}/acknowledge", uri: "/v1/incidents/\(incidentID)/acknowledge",
                key: "admin-secret", body: #"{"owner":"Ana","note":"on it"}"#),
            Call(
                method: .post, route: "/v1/incidents/{id}/acknowledge", uri: "/v1/incidents/20261119-1641-abcdef/acknowledge",
                key: "admin-secret", body: #"{"owner":"Ana"}"#),
            Call(
                method: .post, route: "/v1/incidents/{id}/acknowledge", uri: "/v1/incidents/20261119-1641-abcdef/acknowledge",
                key: "admin-secret", body: #"{"note":"no owner"}"#),
            Call(
                method: .post, route: "/v1/incidents/{id}/acknowledge", uri: "/v1/incidents/20261119-1641-abcdef/acknowledge",
                key: "read-secret", body: #"{"owner":"Ana"}"#),
            Call(method: .get, route: "/healthz", uri: "/healthz", contentType: nil),
            Call(method: .get, route: "/readyz", uri: "/readyz", contentType: nil),
            Call(method: .get, route: "/metrics", uri: "/metrics", key: "read-secret", contentType: nil),
            Call(method: .get, route: "/metrics", uri: "/metrics", contentType: nil),
            Call(method: .get, route: "/metrics/slo", uri: "/metrics/slo", key: "read-secret", contentType: nil),
            Call(method: .get, route: "/metrics/slo", uri: "/metrics/slo", contentType: nil),
        ]
    }

    static let incidentID = "20261119-1641-b5ce28"

    /// The routes the router has, as `METHOD path`.
    private static func routes(store: any PurchaseStore) -> [[String: String]] {
        var configuration = ServerConfiguration()
        configure(&configuration)
        let metrics = ServerMetrics(store: nil)
        let committer = GroupCommitter(store: store, maximumEventsPerCommit: 1000, nowMillis: wallClockMillis, onCommit: { _, _, _ in })
        let router = buildRouter(
            configuration: configuration, store: store, databasePath: nil, committer: committer, metrics: metrics, deliveries: nil,
            receivingClock: wallClockMillis, logger: Logger(label: "purchase-sli-tests"))
        return router.routes.map { ["method": $0.method.rawValue, "path": $0.path.description] }
    }

    @Test func theRouterAndItsAnswersAreWhatOpenAPIDocuments() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
        try await keepAChargedNotGrantedTicket(id: Self.incidentID, in: store)
        let exchanges = try await makeApp(store: store, configure: Self.configure).test(.router) { client in
            var exchanges: [Exchange] = []
            for call in try Self.calls() {
                var headers = HTTPFields()
                if let contentType = call.contentType { headers[.contentType] = contentType }
                if let key = call.key { headers[.authorization] = "Bearer \(key)" }
                if let key = call.newRelicKey { headers[HTTPField.Name("Api-Key")!] = key }
                let body = call.bytes.map { ByteBuffer(bytes: $0) } ?? call.body.map { ByteBuffer(string: $0) }
                let response = try await client.execute(uri: call.uri, method: call.method, headers: headers, body: body)
                exchanges.append(
                    Exchange(
                        method: call.method.rawValue, route: call.route, status: response.status.code,
                        contentType: response.headers[.contentType], body: String(buffer: response.body)))
            }
            return exchanges
        }
        // Each route answers more than one way, so a table that stopped reaching the handlers would show.
        for route in Set(exchanges.map(\.route)) {
            #expect(
                Set(exchanges.filter { $0.route == route }.map(\.status)).count > 1 || ["/healthz", "/readyz"].contains(route),
                "\(route) answered only \(exchanges.filter { $0.route == route }.map(\.status))")
        }
        let record = try JSONSerialization.data(
            withJSONObject: [
                "routes": Self.routes(store: store),
                "exchanges": try JSONSerialization.jsonObject(with: JSONEncoder().encode(exchanges)),
            ])
        let file = try directory.write("exchanges.json", String(decoding: record, as: UTF8.self))
        let python = URL(fileURLWithPath: "/usr/bin/env")
        let checker = packageRoot + "/scripts/check_openapi.py"
        let (status, report) = try await ChildProcess.run(python, ["python3", checker, file])
        #expect(status == .exit(0), "openapi.yaml and the router disagree:\n\(report)")

        // The check can fail: a route left out of the document, and an answer its schema refuses, are named.
        let specification = try String(contentsOfFile: packageRoot + "/openapi.yaml", encoding: .utf8)
        let broken = try directory.write(
            "openapi.yaml",
            specification.replacingOccurrences(of: "  /healthz:\n", with: "  /healthz-gone:\n")
                .replacingOccurrences(of: "required: [accepted, duplicates, rejected, warnings]", with: "required: [accepted, accepted_total]"))
        let (refused, refusal) = try await ChildProcess.run(python, ["python3", checker, file, broken])
        #expect(refused == .exit(1), "\(refusal)")
        #expect(refusal.contains("GET /healthz: the router serves it; openapi.yaml does not document it"), "\(refusal)")
        #expect(refusal.contains("POST /v1/events → 202: (body): 'accepted_total' is a required property"), "\(refusal)")
    }
}
