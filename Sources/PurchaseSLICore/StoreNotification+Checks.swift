extension StoreNotification {
    /// Longest text field kept (a Play purchase token is about 200 characters).
    public static let maximumFieldLength = 1024
    /// The times a notification may carry: 1970 up to the end of 9999, in milliseconds, so that any
    /// difference or sum of two of them with a day or a year stays within Int64 and every output can
    /// write them.
    public static let supportedMillis: ClosedRange<Int64> = 0...253_402_300_799_999
    /// Largest price taken, in the currency's units: far above any store's, far below where a sum of a
    /// year of them would lose whole cents.
    public static let maximumPrice = 1e9

    /// What is wrong with the notification's fields, naming the field (its name here), or nil: a text
    /// field with a control character (a NUL would cut it in a C string, a line break forge a line of
    /// output) or longer than ``maximumFieldLength``, a time outside ``supportedMillis``, a price that is
    /// not a finite number of at most ``maximumPrice``.
    public var problem: (field: String, reason: String)? {
        let texts: [(String, String?)] = [
            ("notificationID", notificationID), ("environment", environment), ("appID", appID), ("type", type), ("subtype", subtype),
            ("transactionID", transactionID), ("originalTransactionID", originalTransactionID), ("productID", productID),
            ("currency", currency), ("appAccountToken", appAccountToken),
        ]
        for case let (field, text?) in texts {
            if text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
                return (field, "must not contain control characters")
            }
            if text.utf8.count > Self.maximumFieldLength {
                return (field, "longer than \(Self.maximumFieldLength) bytes (\(text.utf8.count))")
            }
        }
        let times: [(String, Int64?)] = [("signedMillis", signedMillis), ("purchaseMillis", purchaseMillis), ("revocationMillis", revocationMillis)]
        for case let (field, millis?) in times where !Self.supportedMillis.contains(millis) {
            return (field, "expected milliseconds since 1970 up to the year 9999, got \(millis)")
        }
        if let price, !(price.isFinite && abs(price) <= Self.maximumPrice) {
            return ("price", "expected a price of at most \(Int64(Self.maximumPrice)) in the currency's units, got \(price)")
        }
        return nil
    }
}
