import Foundation
import PurchaseSLIOutbound

/// What a store's API answered: the HTTP status (0: no answer) and the body.
struct StoreAPIAnswer: Sendable {
    var status: Int
    var body: Data
    /// Why the answer cannot be used (no answer, a redirect, a URL of another origin), if so.
    var failure: String?
    /// Whether trying again later may help: no answer, 408, 429 or a 5xx; never a redirect.
    var isTransient: Bool

    /// What ``OutboundHTTP`` returned.
    init(_ answer: OutboundAnswer) {
        (status, body, failure, isTransient) = (answer.status, answer.body, answer.failure?.description, answer.isTransient)
    }

    /// Whether it is a 2xx.
    var isSuccess: Bool { failure == nil && (200..<300).contains(status) }

    /// The store's error in a few words: Apple's `errors[0]` (status, code, title, detail), Google's
    /// `error` (code, status, message), else the start of the body.
    var errorDescription: String {
        if let failure { return failure }
        let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        if let apple = (object?["errors"] as? [[String: Any]])?.first {
            let parts = [apple["code"], apple["title"], apple["detail"]].compactMap { $0 as? String }
            return "\(status) \(parts.joined(separator: ": "))"
        }
        if let google = object?["error"] as? [String: Any] {
            let parts = [google["status"], google["message"]].compactMap { $0 as? String }
            return "\(status) \(parts.joined(separator: ": "))"
        }
        let text = String(decoding: body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "\(status)" : "\(status) \(text)"
    }
}

/// Calls to one store API origin through ``OutboundHTTP``: JSON, a bearer token made anew for each
/// attempt and sent to that origin only, 30 seconds a call, retried as ``OutboundRetry/storeAPI(firstDelay:)``
/// says (a first 401 at once with a new token, a 429 after its `Retry-After`, no answer, 408 or a 5xx
/// with a doubling delay), no redirect followed.
struct StoreAPICall: Sendable {
    /// The client bound to the API's origin.
    let http: OutboundHTTP

    /// Calls of `peer` at the origin of `baseURL`, over `transport`.
    init(peer: String, baseURL: URL, transport: any OutboundTransport, retry: OutboundRetry) {
        http = OutboundHTTP(peer: peer, baseURL: baseURL, transport: transport, timeout: .seconds(30), retry: retry)
    }

    /// Sends `method` to `url` with a bearer token from `token` (asked anew for each attempt) and, when
    /// given, a JSON body.
    func send(_ method: String, _ url: URL, body: Data? = nil, token: @escaping @Sendable () async throws -> String) async -> StoreAPIAnswer {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        return StoreAPIAnswer(
            await http.send(method, url, headers: headers, body: body) { [("Authorization", "Bearer \(try await token())")] })
    }
}

/// `object` as JSON with sorted keys (empty when it cannot be: never, for the bodies made here): a
/// document read from a store and sent back changed, whose members this client does not all know.
func jsonBody(_ object: [String: Any]) -> Data {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
}
