package import PurchaseSLICore

/// The grants a batch's events reported in one minute (``GrantRecord``), as one blob stored beside the
/// minute's client reports: the strings the grants use (``BlobStrings``), a count, then per grant varints:
/// its time within the minute, the string ids of event id, transaction, product, plan, action, app version,
/// platform, app and currency, and its price in thousandths (zigzag, plus one; 0 without one). Unlike a
/// report it names its transaction in full: a grant is found by what it names, not looked up by it.
package enum GrantBlob {
    /// One minute's grants under construction.
    struct Part {
        private var strings = BlobStrings()
        private var records: [UInt8] = []
        private var count = 0

        /// Whether it holds no grant.
        var isEmpty: Bool { count == 0 }

        /// Appends the grant of `event`, if it reports one.
        mutating func add(_ event: UnsafePointer<PurchaseEvent>) {
            guard let transactionID = event.pointee.grantedTransactionID else { return }
            appendVarint(UInt64(event.pointee.timestampMillis.floorDividedBy(60_000).remainder), to: &records)
            let ids: [UInt64] = [
                strings.id(event.pointee.eventID), strings.id(transactionID), strings.id(event.pointee.productID),
                strings.optionalID(event.pointee.planID), strings.id(event.pointee.actionType.rawValue),
                strings.optionalID(event.pointee.appVersion), strings.optionalID(event.pointee.platform),
                strings.optionalID(event.pointee.app), strings.optionalID(event.pointee.currency),
            ]
            for id in ids { appendVarint(id, to: &records) }
            appendVarint(event.pointee.price.map { zigzag(Int64(($0 * 1000).rounded())) + 1 } ?? 0, to: &records)
            count += 1
        }

        /// The blob.
        func encoded() -> [UInt8] {
            var bytes = strings.encoded()
            appendVarint(UInt64(count), to: &bytes)
            return bytes + records
        }
    }

    /// Appends the blob's grants whose time is in `range` (milliseconds) to `grants`.
    /// - Throws: `CorruptBucketError` when the bytes are not such a blob.
    package static func decode(_ bytes: UnsafeRawBufferPointer, minute: Int64, in range: Range<Int64>, into grants: inout [GrantRecord]) throws {
        var reader = VarintReader(bytes: bytes)
        let strings = try BlobStrings.Reader(&reader)
        let count = try reader.count()
        for _ in 0..<count {
            let offset = try reader.next()
            guard offset < 60_000 else { throw CorruptBucketError(detail: "a time \(offset) ms into its minute") }
            var ids: [UInt64] = []
            for _ in 0..<9 { ids.append(try reader.next()) }
            let price = try reader.next()
            let millis = minute &* 60_000 &+ Int64(offset)
            guard range.contains(millis) else { continue }
            grants.append(
                GrantRecord(
                    eventID: try strings.string(ids[0]), transactionID: try strings.string(ids[1]), millis: millis,
                    productID: try strings.string(ids[2]), planID: try strings.optionalString(ids[3]),
                    actionType: ActionType(rawValue: try strings.string(ids[4])), appVersion: try strings.optionalString(ids[5]),
                    platform: try strings.optionalString(ids[6]), app: try strings.optionalString(ids[7]),
                    price: price == 0 ? nil : Double(unzigzag(price - 1)) / 1000, currency: try strings.optionalString(ids[8])))
        }
        guard reader.isAtEnd else { throw CorruptBucketError(detail: "bytes after the last grant") }
    }
}
