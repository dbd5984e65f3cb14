import PurchaseSLICore

/// The time resolutions at which buckets are kept, finest first.
enum Resolution: Int, CaseIterable, Sendable {
    case minute = 60
    case hour = 3600
    case day = 86_400

    var seconds: Int64 { Int64(rawValue) }
    /// The table of this resolution's counts.
    var bucketTable: String { "bucket_" + name }
    /// The table of this resolution's error counts.
    var errorTable: String { "error_" + name }

    private var name: String {
        switch self {
        case .minute: "minute"
        case .hour: "hour"
        case .day: "day"
        }
    }

    /// The start of the bucket that holds `second`.
    func bucketStart(_ second: Int64) -> Int64 { second - second.floorDividedBy(seconds).remainder }
}
