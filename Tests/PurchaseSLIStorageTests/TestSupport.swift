import Foundation
import PurchaseSLICore
import PurchaseSLIStorage

/// Seconds since the epoch of an RFC 3339 time.
func seconds(_ text: String) -> Int64 { RFC3339.parseMillis(text)! / 1000 }

/// An event with sensible defaults; tests override what they examine.
func event(
    _ id: String, at time: String, product: String = "coins_100", plan: String? = "coins-small",
    action: ActionType = .purchase, result: ResultType = .success, status: Int? = nil, version: String? = "4.11.0",
    error: String? = nil, app: String? = nil
) -> PurchaseEvent {
    PurchaseEvent(
        eventID: id, timestampMillis: RFC3339.parseMillis(time)!, productID: product, planID: plan, actionType: action,
        resultType: result, statusCode: status, appVersion: version, errorDescription: error, app: app)
}

let receivedAt = RFC3339.parseMillis("2026-11-21T00:00:00Z")!
