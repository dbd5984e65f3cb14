import PurchaseSLICore
import PurchaseSLIDecoding

/// `{"error"}`: what went wrong, the answer of every route that refuses a request (ingestion adds the
/// records it rejected, ``IngestAnswer/Failure``).
struct ErrorAnswer: Encodable {
    let error: String
}

/// The answers of the ingestion routes, each in its dialect's shape (docs/http-api.md).
enum IngestAnswer {
    /// `POST /v1/events` took the batch: `{"accepted", "duplicates", "rejected", "warnings"}`.
    struct Accepted: Encodable {
        let accepted: Int
        let duplicates: Int
        let rejected: [RecordReject.Answer]
        let warnings: [RecordReject.Answer]
    }

    /// `POST /v1/events` refused the batch: `{"error", "rejected"}`, the latter when records were at fault.
    struct Failure: Encodable {
        let error: String
        let rejected: JSONOmittedIfAbsent<[RecordReject.Answer]>
    }

    /// New Relic's route took the batch: `{"success": true, "uuid", "accepted", "duplicates", "ignored", "rejected"}`.
    struct NewRelicAccepted: Encodable {
        let success = true
        let uuid: String
        let accepted: Int
        let duplicates: Int
        let ignored: Int
        let rejected: [RecordReject.Answer]
    }

    /// New Relic's route refused the batch: `{"success": false, "error", "rejected"}`.
    struct NewRelicFailure: Encodable {
        let success = false
        let error: String
        let rejected: JSONOmittedIfAbsent<[RecordReject.Answer]>
    }

    /// OTLP's `ExportLogsServiceResponse`: `{}`, or `{"partialSuccess": {"rejectedLogRecords", "errorMessage"}}`
    /// (the count a string, as protobuf's JSON writes an int64).
    struct OTLPAccepted: Encodable {
        struct PartialSuccess: Encodable {
            let rejectedLogRecords: String
            let errorMessage: String
        }

        let partialSuccess: JSONOmittedIfAbsent<PartialSuccess>
    }

    /// OTLP's error, a `google.rpc.Status`: `{"code", "message"}`.
    struct RPCStatus: Encodable {
        let code: Int
        let message: String
    }
}
