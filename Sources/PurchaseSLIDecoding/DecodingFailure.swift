/// Why an input could not be decoded any further: what came before was handed out, nothing after.
public enum DecodingFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The decompressed input is larger than the limit.
    case decompressedTooLarge(limit: Int)
    /// The gzip stream is corrupt or truncated.
    case gzip(String)
    /// The input holds more records than the limit.
    case tooManyRecords(limit: Int)
    /// A record that must be read whole (one event object, one OTLP document) is larger than the limit.
    case recordTooLarge(String)

    public var description: String {
        switch self {
        case .decompressedTooLarge(let limit): "decompressed data exceeds the limit of \(limit) bytes"
        case .gzip(let message): "not valid gzip: \(message)"
        case .tooManyRecords(let limit): "more than \(limit) records in one request; split the batch"
        case .recordTooLarge(let message): message
        }
    }
}
