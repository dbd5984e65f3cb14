import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurchaseSLICore
import PurchaseSLIServer
import PurchaseSLIStorage
import PurchaseSLIStores
import PurchaseSLITestSupport
import Testing

@Suite("POST /v1/stores/…/notifications: 200 only once stored, refusals the stores understand")
struct StoreNotificationRoutesTests {
    let directory: TemporaryDirectory
    let store: SQLiteBucketStore
    static let chain = try! AppStoreSigningChain(
        validity: Date(timeIntervalSinceNow: -30 * 86_400)...Date(timeIntervalSinceNow: 30 * 86_400))

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
    }

    private func charge(_ id: String, store: Store = .apple, app: String = "com.example.app") -> StoreNotification {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return StoreNotification(
            store: store, notificationID: "n-\(id)", environment: "Production", appID: app,
            type: store == .apple ? "ONE_TIME_CHARGE" : "ONE_TIME_PRODUCT_PURCHASED", kind: .charge, signedMillis: now - 60_000,
            transactionID: id, originalTransactionID: store == .apple ? id : nil, productID: "coins_100", purchaseMillis: now - 60_000,
            price: store == .apple ? 0.99 : nil,
            currency: store == .apple ? "USD" : nil)
    }

    private func app(readKeys: [String] = []) -> some ApplicationProtocol {
        makeApp(store: store) { configuration in
            configuration.appleRootCertificates = [Self.chain.rootDER]
            configuration.appleBundleIDs = ["com.example.app"]
            configuration.googlePackageNames = ["com.example.app"]
            configuration.googlePushTokens = AccessKeys(["push-secret"])
            configuration.readKeys = AccessKeys(readKeys)
        }
    }

    private var stored: [StoreNotification] {
        get async throws { try await store.notifications(kinds: Set(StoreEventKind.allCases), fromMillis: 0, toMillis: .max).map(\.notification) }
    }

    @Test("an App Store notification is stored once; its resend is answered 200 again and not stored twice")
    func appleStoredOnce() async throws {
        let sent = charge("t1")
        let body = try ByteBuffer(bytes: StoreNotificationEncoder.appleBody(sent, chain: Self.chain))
        try await app(readKeys: ["reader"]).test(.router) { client in
            for duplicates in [0, 1] {
                try await client.execute(uri: "/v1/stores/apple/notifications", method: .post, body: body) { response in
                    #expect(response.status == .ok)
                    #expect(bodyJSON(response.body)["duplicates"] as? Int == duplicates)
                }
            }
        }
        await #expect(try stored == [sent])
    }

    @Test(
        "App Store refusals carry the status and reason",
        arguments: [
            ("another root", 401, "trusted root"), ("another bundle", 403, "com.other.app"), ("not JSON", 400, "signedPayload"),
        ])
    func appleRefusals(case name: String, status: Int, reason: String) async throws {
        let body: [UInt8] =
            switch name {
            case "another root":
                try StoreNotificationEncoder.appleBody(
                    charge("t1"), chain: AppStoreSigningChain(validity: Date(timeIntervalSinceNow: -86_400)...Date(timeIntervalSinceNow: 86_400)))
            case "another bundle": try StoreNotificationEncoder.appleBody(charge("t1", app: "com.other.app"), chain: Self.chain)
            default: Array("hello".utf8)
            }
        try await app().test(.router) { client in
            try await client.execute(uri: "/v1/stores/apple/notifications", method: .post, body: ByteBuffer(bytes: body)) { response in
                #expect(response.status.code == status)
                #expect(errorMessage(response.body).contains(reason), "\(errorMessage(response.body))")
            }
        }
        await #expect(try stored.isEmpty)
    }

    @Test("without a configured bundle the App Store endpoint refuses with 403 and says which option is missing")
    func appleNotConfigured() async throws {
        let body = try ByteBuffer(bytes: StoreNotificationEncoder.appleBody(charge("t1"), chain: Self.chain))
        try await makeApp(store: store).test(.router) { client in
            try await client.execute(uri: "/v1/stores/apple/notifications", method: .post, body: body) { response in
                #expect(response.status == .forbidden)
                #expect(errorMessage(response.body).contains("--apple-bundle-id"))
            }
        }
    }

    @Test("a Play push is authenticated by its token, in the URL or as a bearer header, and stored once")
    func googleToken() async throws {
        let body = try ByteBuffer(bytes: #require(StoreNotificationEncoder.googleBody(charge("token-1", store: .google))))
        try await app().test(.router) { client in
            try await client.execute(uri: "/v1/stores/google/notifications", method: .post, body: body) { response in
                #expect(response.status == .unauthorized)
                #expect(errorMessage(response.body).contains("?token="))
            }
            try await client.execute(uri: "/v1/stores/google/notifications?token=wrong", method: .post, body: body) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/v1/stores/google/notifications?token=push-secret", method: .post, body: body) { response in
                #expect(response.status == .ok)
                #expect(bodyJSON(response.body)["accepted"] as? Int == 1)
            }
            try await client.execute(
                uri: "/v1/stores/google/notifications", method: .post, headers: [.authorization: "Bearer push-secret"], body: body
            ) { response in
                #expect(response.status == .ok)
                #expect(bodyJSON(response.body)["duplicates"] as? Int == 1)
            }
        }
        await #expect(try stored.map(\.transactionID) == ["token-1"])
    }

    @Test(
        "checked before the body is read: a declared body over 256 KiB is 413, a Play push without its token 401; past its burst an address gets 429")
    func refusedBeforeTheBody() async throws {
        try await app().test(.router) { client in
            for path in ["/v1/stores/apple/notifications", "/v1/stores/google/notifications?token=push-secret"] {
                let headers: HTTPFields = [.contentLength: String(256 << 10 + 1)]
                try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(repeating: 0x20, count: 256 << 10 + 1)) {
                    response in
                    #expect(response.status == .contentTooLarge, "\(path)")
                    #expect(String(buffer: response.body).contains("for a store notification"))
                }
            }
            // Tokens refill at 50 a second while the requests go: the first 429 comes after the burst of 500.
            var served = 2
            var limited: HTTPFields?
            while limited == nil, served < 5000 {
                try await client.execute(uri: "/v1/stores/google/notifications", method: .post, body: ByteBuffer(string: "{")) { response in
                    if response.status == .tooManyRequests {
                        limited = response.headers
                        #expect(String(buffer: response.body).contains("rate limit of this address on the store notification routes"))
                    } else {
                        #expect(response.status == .unauthorized && String(buffer: response.body).contains("missing push token"))
                        served += 1
                    }
                }
            }
            #expect(served >= 500 && limited?[.retryAfter] == "1", "\(served) served")
        }
    }

    @Test("GET /v1/query?of=charges counts the stored charges and the grants the events reported; bad arguments are 400s naming them")
    func queryOfCharges() async throws {
        let now = Int64(Date().timeIntervalSince1970)
        let granted = eventLine("e1").replacingOccurrences(of: #""resultType""#, with: #""transactionID":"t1","resultType""#)
        try await app().test(.router) { client in
            for id in ["t1", "t2"] {
                let body = try ByteBuffer(bytes: StoreNotificationEncoder.appleBody(charge(id), chain: Self.chain))
                try await client.execute(uri: "/v1/stores/apple/notifications", method: .post, body: body) { #expect($0.status == .ok) }
            }
            try await client.execute(uri: "/v1/events", method: .post, headers: ndjson, body: body([granted])) { response in
                #expect(response.status == .accepted, "\(String(buffer: response.body))")
            }
            // A day either side: under a loaded test run the charges may be made minutes after `now`.
            let range = "from=\(RFC3339.format(seconds: now - 86_400))&to=\(RFC3339.format(seconds: now + 86_400))"
            try await client.execute(uri: "/v1/query?of=charges&\(range)&by=productID,store", method: .get) { response in
                #expect(response.status == .ok)
                let rows = bodyJSON(response.body)["rows"] as? [[String: Any]] ?? []
                #expect(rows.count == 1 && rows.first?["productID"] as? String == "coins_100" && rows.first?["store"] as? String == "apple")
                #expect(rows.first?["charges"] as? Int == 2 && rows.first?["granted"] as? Int == 1, "\(rows)")
                #expect((rows.first?["chargedAmounts"] as? [String: Double])?["USD"] == 1.98)
            }
            for (query, message) in [
                ("of=charges&\(range)&by=country", "by: with charges expected one of"), ("of=sales&\(range)", "of: expected events or charges"),
                ("\(range)&at=now", "at applies to of=charges"), ("of=charges&\(range)&step=90s", "step: expected a whole number of minutes"),
            ] {
                try await client.execute(uri: "/v1/query?\(query)", method: .get) { response in
                    #expect(response.status == .badRequest)
                    #expect(errorMessage(response.body).contains(message), "\(errorMessage(response.body))")
                }
            }
        }
    }

    @Test("refused and stored notifications are counted in /metrics by store and outcome")
    func metricsCount() async throws {
        let body = try ByteBuffer(bytes: StoreNotificationEncoder.appleBody(charge("t1"), chain: Self.chain))
        try await app().test(.router) { client in
            try await client.execute(uri: "/v1/stores/apple/notifications", method: .post, body: body) { _ in }
            try await client.execute(uri: "/v1/stores/apple/notifications", method: .post, body: body) { _ in }
            try await client.execute(uri: "/v1/stores/apple/notifications", method: .post, body: ByteBuffer(string: "{}")) { _ in }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"purchase_sli_store_notifications_total{store="apple",outcome="accepted"} 1"#))
                #expect(text.contains(#"purchase_sli_store_notifications_total{store="apple",outcome="duplicate"} 1"#))
                #expect(text.contains(#"purchase_sli_store_notifications_total{store="apple",outcome="400"} 1"#))
            }
        }
    }
}
