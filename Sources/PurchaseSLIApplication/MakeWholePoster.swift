public import Foundation
public import PurchaseSLIAnalysis
public import PurchaseSLICore
public import PurchaseSLIOutbound

/// Posts a charge not granted to the team's grant server, so that it grants it without waiting for the
/// user to ask: one JSON request per charge with an `Idempotency-Key` of its store and transaction (a
/// grant server that keeps the key grants it once however often it is posted), retried with exponential
/// backoff while the server does not answer, answers 5xx, 408 or 429 (``OutboundRetry``). A charge is
/// delivered only by a 2xx whose JSON body names its transaction (`{"transactionID": "…"}`); a redirect
/// is never followed (the key goes to the configured origin only), and it, or a 2xx without that body,
/// leaves the charge owed: failed, posted again by the next run.
public struct MakeWholePoster: Sendable {
    /// Where the charges are posted.
    public let url: URL
    /// Attempts per charge and run, at least 1.
    public let maxAttempts: Int
    /// The wait before the second attempt, in seconds; it doubles for each one after.
    public let firstRetrySeconds: Double
    private let http: OutboundHTTP

    /// Creates a poster posting over `transport`; a post that takes over 10 seconds gets no answer.
    public init(url: URL, maxAttempts: Int = 4, firstRetrySeconds: Double = 1, transport: any OutboundTransport) {
        self.url = url
        self.maxAttempts = max(1, maxAttempts)
        self.firstRetrySeconds = max(0, firstRetrySeconds)
        http = OutboundHTTP(
            peer: "the grant server", baseURL: url, transport: transport, timeout: .seconds(10),
            retry: OutboundRetry(attempts: self.maxAttempts, firstDelay: .milliseconds(Int64(self.firstRetrySeconds * .millisPerSecond))))
    }

    /// The key the grant server deduplicates by: `apple:2000000471416079`.
    public static func idempotencyKey(of charge: ChargeLedger.Charge) -> String {
        "\(charge.notification.store.rawValue):\(charge.notification.transactionID ?? charge.notification.notificationID)"
    }

    /// What a grant server needs to grant a charge: `{"store", "transactionID", "productID", "app",
    /// "environment", "type", "chargedAt"}`, then "appAccountToken" and "price" with "currency" when known.
    public struct Body: Encodable, Sendable {
        let store: String
        let transactionID: String
        let productID: String
        let app: String
        let environment: String
        let type: String
        let chargedAt: JSONTime
        let appAccountToken: JSONOmittedIfAbsent<String>
        let price: JSONOmittedIfAbsent<Double>
        let currency: JSONOmittedIfAbsent<String>
    }

    /// The body posted for `charge`, as JSON text.
    public static func body(of charge: ChargeLedger.Charge) -> String {
        let notification = charge.notification
        let priced = notification.price.flatMap { price in notification.currency.map { (price, $0) } }
        return JSONTextEncoder.text(
            Body(
                store: notification.store.rawValue, transactionID: notification.transactionID ?? "", productID: charge.productID,
                app: notification.appID, environment: notification.environment, type: notification.type,
                chargedAt: JSONTime(millis: charge.eventMillis),
                appAccountToken: JSONOmittedIfAbsent(notification.appAccountToken), price: JSONOmittedIfAbsent(priced?.0),
                currency: JSONOmittedIfAbsent(priced?.1)))
    }

    /// Posts `charge` until the grant server settles it or the attempts run out; `previous` is what was
    /// kept from earlier runs (its attempts are counted on). `nowMillis` stamps the last attempt.
    public func post(_ charge: ChargeLedger.Charge, previous: MakeWholeDelivery?, nowMillis: @Sendable () -> Int64) async -> MakeWholeDelivery {
        let transactionID = charge.notification.transactionID ?? charge.notification.notificationID
        let key = Self.idempotencyKey(of: charge)
        let answer = await http.send(
            "POST", url, headers: [("Content-Type", "application/json"), ("Accept", "application/json")], body: Data(Self.body(of: charge).utf8)
        ) { [("Idempotency-Key", key)] }
        let (outcome, detail) = Self.outcome(of: answer, transactionID: transactionID)
        return MakeWholeDelivery(
            store: charge.notification.store, transactionID: transactionID, outcome: outcome, status: answer.status, detail: detail,
            attempts: (previous?.attempts ?? 0) + answer.attempts, lastAttemptMillis: nowMillis())
    }

    /// What an answer makes of a charge: delivered only by a 2xx whose body names `transactionID`;
    /// already granted by a 409; refused by another 4xx; failed (owed, posted again) by anything else:
    /// no answer, a 5xx, a redirect, a 2xx without the expected body.
    static func outcome(of answer: OutboundAnswer, transactionID: String) -> (MakeWholeDelivery.Outcome, String) {
        let said = String(decoding: answer.body.prefix(200), as: UTF8.self)
        if let failure = answer.failure { return (.failed, failure.description) }
        switch answer.status {
        case 200..<300:
            guard Self.namesTransaction(answer.body, transactionID) else {
                let got = said.isEmpty ? "an empty body" : "\"\(said)\""
                return (
                    .failed,
                    "the grant server answered \(answer.status) without naming the transaction (expected a JSON object with \"transactionID\": \"\(transactionID)\"), got \(got): not taken as granted"
                )
            }
            return (.delivered, said)
        case 409: return (.alreadyGranted, said)
        case 400..<500 where !OutboundRetry.isTransient(status: answer.status): return (.refused, said)
        default: return (.failed, said)
        }
    }

    /// Whether `body` is a JSON object whose `transactionID` is `transactionID`.
    static func namesTransaction(_ body: Data, _ transactionID: String) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return false }
        return object["transactionID"] as? String == transactionID
    }
}
