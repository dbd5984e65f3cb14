public import Foundation
public import PurchaseSLIAnalysis
public import PurchaseSLICore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Posts a charge not granted to the team's grant server, so that it grants it without waiting for the
/// user to ask: one JSON request per charge with an `Idempotency-Key` of its store and transaction (a
/// grant server that keeps the key grants it once however often it is posted), retried with exponential
/// backoff while the server does not answer, answers 5xx, 408 or 429.
public struct MakeWholePoster: Sendable {
    /// Where the charges are posted.
    public let url: URL
    /// Attempts per charge and run, at least 1.
    public let maxAttempts: Int
    /// The wait before the second attempt, in seconds; it doubles for each one after.
    public let firstRetrySeconds: Double

    /// Creates a poster.
    public init(url: URL, maxAttempts: Int = 4, firstRetrySeconds: Double = 1) {
        self.url = url
        self.maxAttempts = max(1, maxAttempts)
        self.firstRetrySeconds = max(0, firstRetrySeconds)
    }

    /// The key the grant server deduplicates by: `apple:2000000471416079`.
    public static func idempotencyKey(of charge: ChargeLedger.Charge) -> String {
        "\(charge.notification.store.rawValue):\(charge.notification.transactionID ?? charge.notification.notificationID)"
    }

    /// The body: what a grant server needs to grant the charge.
    public static func body(of charge: ChargeLedger.Charge) -> String {
        let notification = charge.notification
        var fields = [
            "\"store\":\"\(notification.store.rawValue)\"", "\"transactionID\":" + JSONText.quoted(notification.transactionID ?? ""),
            "\"productID\":" + JSONText.quoted(charge.productID), "\"app\":" + JSONText.quoted(notification.appID),
            "\"environment\":" + JSONText.quoted(notification.environment), "\"type\":" + JSONText.quoted(notification.type),
            "\"chargedAt\":\"\(RFC3339.format(millis: charge.eventMillis))\"",
        ]
        if let token = notification.appAccountToken { fields.append("\"appAccountToken\":" + JSONText.quoted(token)) }
        if let price = notification.price, let currency = notification.currency {
            fields.append("\"price\":\(JSONText.number(price)),\"currency\":" + JSONText.quoted(currency))
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Posts `charge` until the grant server settles it or the attempts run out; `previous` is what was
    /// kept from earlier runs (its attempts are counted on). `nowMillis` stamps the last attempt.
    public func post(_ charge: ChargeLedger.Charge, previous: MakeWholeDelivery?, nowMillis: @Sendable () -> Int64) async -> MakeWholeDelivery {
        var delivery = MakeWholeDelivery(
            store: charge.notification.store, transactionID: charge.notification.transactionID ?? charge.notification.notificationID,
            outcome: .failed, status: 0, detail: "", attempts: previous?.attempts ?? 0, lastAttemptMillis: nowMillis())
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(Self.idempotencyKey(of: charge), forHTTPHeaderField: "Idempotency-Key")
        request.httpBody = Data(Self.body(of: charge).utf8)
        for attempt in 0..<maxAttempts {
            if attempt > 0 { try? await Task.sleep(for: .seconds(firstRetrySeconds * Double(1 << (attempt - 1)))) }
            delivery.attempts += 1
            delivery.lastAttemptMillis = nowMillis()
            do {
                let (data, response) = try await URLSession.shared.data(for: request)
                delivery.status = (response as? HTTPURLResponse)?.statusCode ?? 0
                delivery.detail = String(decoding: data.prefix(200), as: UTF8.self)
            } catch {
                (delivery.status, delivery.detail) = (0, "no answer: \(error.localizedDescription)")
                continue
            }
            switch delivery.status {
            case 200..<300: delivery.outcome = .delivered
            case 409: delivery.outcome = .alreadyGranted
            case 408, 429, 500...: continue
            default: delivery.outcome = .refused
            }
            return delivery
        }
        delivery.outcome = .failed
        return delivery
    }
}
