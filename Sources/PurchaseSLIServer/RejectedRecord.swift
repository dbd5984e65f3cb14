import PurchaseSLICore

/// One record of a request that was not counted, or an optional field left out of one that was: its
/// position and why.
public struct RejectedRecord: Sendable, Hashable {
    /// 0-based position among the request's records.
    public var index: Int
    /// The field at fault, `json` for malformed JSON, or `record` for an over-long line.
    public var field: String
    /// What was wrong and what was expected.
    public var reason: String

    /// `{"index": i, "field": "…", "reason": "…"}`.
    var json: String {
        "{\"index\":\(index),\"field\":\(JSONText.quoted(field)),\"reason\":\(JSONText.quoted(reason))}"
    }
}
