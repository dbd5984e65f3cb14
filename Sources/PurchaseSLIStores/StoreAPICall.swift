import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a store's API answered: the HTTP status (0: no answer) and the body.
struct StoreAPIAnswer: Sendable {
    var status: Int
    var body: Data
    /// Why no answer came, when none did.
    var failure: String?

    /// Whether it is a 2xx.
    var isSuccess: Bool { (200..<300).contains(status) }
    /// Whether trying again later may help: no answer, 429 or a 5xx.
    var isTransient: Bool { status == 0 || status == 429 || status >= 500 }

    /// The store's error in a few words: Apple's `errors[0]` (status, code, title, detail), Google's
    /// `error` (code, status, message), else the start of the body.
    var errorDescription: String {
        if let failure { return "no answer: \(failure)" }
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

/// One call to a store's API, tried again on no answer or a 5xx after `retryDelaySeconds` (doubling),
/// on 429 after its `Retry-After` (at most 30 seconds), and on a first 401 at once with a new token, up
/// to `attempts` times in all.
struct StoreAPICall: Sendable {
    /// Calls in all, the first included.
    var attempts = 3
    /// The wait before the first retry of a call that got no answer or a 5xx.
    var retryDelaySeconds = 1.0

    /// Sends what `request` makes (called anew for each attempt: a fresh token each time).
    func send(_ request: @Sendable () async throws -> URLRequest) async -> StoreAPIAnswer {
        var answer = StoreAPIAnswer(status: 0, body: Data(), failure: "not sent")
        var delay = retryDelaySeconds
        for attempt in 1...max(1, attempts) {
            do {
                let (data, response) = try await URLSession.shared.data(for: try await request())
                let http = response as? HTTPURLResponse
                answer = StoreAPIAnswer(status: http?.statusCode ?? 0, body: data, failure: nil)
                // A 401 is tried once more at once, with a new token (one that expired on the way, or a clock
                // that ran ahead).
                if answer.status == 401, attempt == 1, attempts > 1 { continue }
                guard answer.isTransient, attempt < attempts else { return answer }
                if answer.status == 429, let after = http?.value(forHTTPHeaderField: "Retry-After").flatMap(Double.init) {
                    try? await Task.sleep(for: .seconds(min(30, max(0, after))))
                    continue
                }
            } catch {
                answer = StoreAPIAnswer(status: 0, body: Data(), failure: error.localizedDescription)
                guard attempt < attempts else { return answer }
            }
            try? await Task.sleep(for: .seconds(delay))
            delay *= 2
        }
        return answer
    }
}

extension URLRequest {
    /// A request of `method` to `url` with a bearer token and, when given, a JSON body.
    static func storeAPI(_ method: String, _ url: URL, token: String, body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: url, timeoutInterval: 30)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        return request
    }
}

/// `object` as JSON with sorted keys (empty when it cannot be: never, for the bodies made here).
func jsonBody(_ object: [String: Any]) -> Data {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
}
