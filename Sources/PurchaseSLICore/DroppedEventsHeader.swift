/// The header with which a client reports the events it dropped unsent (its queue on disk was full),
/// sent with its next batch, and what a value may be.
public enum DroppedEventsHeader {
    /// `X-Purchase-SLI-Dropped-Events`.
    public static let name = "X-Purchase-SLI-Dropped-Events"
    /// Most events one request may report: a client with more reports them over several batches. A
    /// device whose queue (5 MiB by default) was full drops a few thousand events at most in a day.
    public static let maximumPerRequest = 10_000

    /// The number a header value reports: decimal digits for 0…``maximumPerRequest``, nothing else (no
    /// sign, no spaces, at most 9 digits read); 0 for an absent header.
    /// - Throws: a sentence naming the header, what was expected, and the value (shortened).
    public static func count(_ value: String?) throws(EventValidationError) -> Int {
        guard let value else { return 0 }
        let utf8 = value.utf8
        if !utf8.isEmpty, utf8.count <= 9, utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let count = Int(value), count <= maximumPerRequest
        {
            return count
        }
        let shown = value.unicodeScalars.count > 40 ? String(value.unicodeScalars.prefix(40)) + "…" : value
        throw EventValidationError(
            field: name,
            reason: "expected a whole number of events from 0 to \(maximumPerRequest) (report more over several batches), got "
                + JSONText.quoted(shown))
    }
}
