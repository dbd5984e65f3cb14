public import PurchaseSLIAnalysis
public import PurchaseSLICore

/// The answers to the App Store's consumption requests, as `purchase-sli consumption` prints them.
public enum ConsumptionOutput {
    /// One answer and what became of it.
    public struct Row: Sendable {
        /// The drafted answer.
        public var answer: ConsumptionAnswer
        /// Its body as sent (or as it would be).
        public var body: ConsumptionAnswer.Body
        /// "not sent (dry run)", "sent: 202", "not sent: past the 12 h Apple allows", "failed: …".
        public var outcome: String

        /// Creates a row.
        public init(answer: ConsumptionAnswer, body: ConsumptionAnswer.Body, outcome: String) {
            self.answer = answer
            self.body = body
            self.outcome = outcome
        }
    }

    /// Why the answer is what it is: "granted 2026-11-19T16:02:33Z", "the app last reported failure (HTTP
    /// 503) at …", "the app last reported cancel at …", "nothing reported".
    public static func reason(_ answer: ConsumptionAnswer, zone: TimeZoneOffsets = .utc) -> String {
        if let granted = answer.grantedMillis { return "granted \(zone.timestamp(granted / .millisPerSecond))" }
        guard let report = answer.report else { return "no grant; the app reported nothing" }
        let status = report.lastStatusCode.map { " (HTTP \($0))" } ?? ""
        return "no grant; the app last reported \(report.lastResult.rawValue)\(status) at \(zone.timestamp(report.lastMillis / .millisPerSecond))"
    }

    /// A table, then a count line.
    public static func text(_ rows: [Row], now: Int64, zone: TimeZoneOffsets = .utc) -> String {
        guard !rows.isEmpty else { return "no consumption request matches\n" }
        let lines = rows.map { row -> [String] in
            let answer = row.answer
            let due = answer.answerByMillis <= now ? "OVERDUE" : zone.timestamp(answer.answerByMillis / .millisPerSecond)
            return [
                zone.timestamp(answer.request.receivedMillis / .millisPerSecond), answer.transactionID, answer.productID,
                answer.deliveryStatus.rawValue, reason(answer, zone: zone), due, row.outcome,
            ]
        }
        let header = ["requested", "transaction", "product", "deliveryStatus", "why", "answer by", "outcome"]
        let undelivered = rows.filter { $0.answer.deliveryStatus != .delivered }.count
        return TerminalTable.render(header: header, rows: lines)
            + "\(rows.count) request\(rows.count == 1 ? "" : "s"), \(undelivered) not delivered\n"
    }

    /// One JSON object per line: the request, the body, the outcome (``ConsumptionJSON``).
    public static func jsonLines(_ rows: [Row]) -> String {
        rows.map { JSONTextEncoder.text(ConsumptionJSON($0)) + "\n" }.joined()
    }
}

/// One answer to a consumption request as `consumption --format json` lists it: `{"requestedAt",
/// "transactionID", "productID", "app", "answerBy", "why", "body", "outcome"}`.
public struct ConsumptionJSON: Encodable, Sendable {
    let requestedAt: JSONTime
    let transactionID: String
    let productID: String
    let app: String
    let answerBy: JSONTime
    let why: String
    let body: ConsumptionAnswer.Body
    let outcome: String

    /// The row's JSON.
    public init(_ row: ConsumptionOutput.Row) {
        let answer = row.answer
        requestedAt = JSONTime(millis: answer.request.receivedMillis)
        transactionID = answer.transactionID
        productID = answer.productID
        app = answer.request.notification.appID
        answerBy = JSONTime(millis: answer.answerByMillis)
        why = ConsumptionOutput.reason(answer)
        body = row.body
        outcome = row.outcome
    }
}
