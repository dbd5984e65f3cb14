import PurchaseSLICore

/// The time resolutions at which buckets are kept, finest first.
public enum Resolution: Int, CaseIterable, Sendable {
    /// One-minute buckets, kept for weeks.
    case minute = 60
    /// One-hour buckets.
    case hour = 3600
    /// One-day (UTC) buckets.
    case day = 86_400

    /// The width of a bucket.
    public var seconds: Int64 { Int64(rawValue) }
    /// The table of this resolution's counts.
    package var bucketTable: String { "bucket_" + name }
    /// The table of this resolution's error counts.
    package var errorTable: String { "error_" + name }

    private var name: String {
        switch self {
        case .minute: "minute"
        case .hour: "hour"
        case .day: "day"
        }
    }

    /// The next finer resolution, nil for minutes.
    public var finer: Resolution? {
        switch self {
        case .minute: nil
        case .hour: .minute
        case .day: .hour
        }
    }

    /// The start of the bucket that holds `second`.
    public func bucketStart(_ second: Int64) -> Int64 { second - second.floorDividedBy(seconds).remainder }
}
