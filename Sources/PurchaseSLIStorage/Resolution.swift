import PurchaseSLICore

/// The time resolutions at which buckets are kept, finest first.
enum Resolution: Int, CaseIterable, Sendable {
    case minute = 60
    case hour = 3600
    case day = 86_400

    var seconds: Int64 { Int64(rawValue) }
    var bucketTable: String { "bucket_\(self)" }
    var errorTable: String { "error_\(self)" }

    /// The start of the bucket that holds `second`.
    func bucketStart(_ second: Int64) -> Int64 { second - second.floorDividedBy(seconds).remainder }
}
