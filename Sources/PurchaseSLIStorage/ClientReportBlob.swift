import PurchaseSLICore

/// What one commit's events reported in one minute, per transaction id and account token, as one blob:
/// the strings the reports use, then a record per key (varints). Keys are stored as 64-bit hashes of
/// their kind and text; a reader knows the keys it looks for.
///
/// Stored per minute rather than per key, reports are appended in time order: a random key per purchase
/// made a keyed table cost more to write than everything else an event writes (a B-tree insert at a random
/// place for each of them, ten times the ingest time).
enum ClientReportBlob {
    /// The stored key of a report: a stable 64-bit hash of its kind and text.
    static func hash(of key: ClientReport.Key) -> Int64 {
        switch key {
        case .transactionID(let id): EventIDHash.hash("t:" + id)
        case .appAccountToken(let token): EventIDHash.hash("a:" + token)
        }
    }

    /// The blob of `reports`.
    static func encode(_ reports: [ClientReport]) -> [UInt8] {
        var strings: [String] = []
        var index: [String: UInt64] = [:]
        func id(_ text: String) -> UInt64 {
            if let known = index[text] { return known }
            index[text] = UInt64(strings.count)
            strings.append(text)
            return UInt64(strings.count - 1)
        }
        var records: [UInt8] = []
        records.reserveCapacity(reports.count * 24)
        for report in reports {
            appendVarint(UInt64(bitPattern: hash(of: report.key)), to: &records)
            appendVarint(report.firstGrantMillis.map { UInt64(bitPattern: $0) &+ 1 } ?? 0, to: &records)
            appendVarint(UInt64(bitPattern: report.lastMillis), to: &records)
            appendVarint(report.lastStatusCode.map { UInt64(UInt32(truncatingIfNeeded: $0)) + 1 } ?? 0, to: &records)
            appendVarint(id(report.productID), to: &records)
            appendVarint(report.planID.map { id($0) + 1 } ?? 0, to: &records)
            appendVarint(id(report.actionType), to: &records)
            appendVarint(id(report.lastResult.rawValue), to: &records)
            appendVarint(report.lastErrorDescription.map { id($0) + 1 } ?? 0, to: &records)
        }
        var bytes: [UInt8] = []
        appendVarint(UInt64(strings.count), to: &bytes)
        for text in strings {
            appendVarint(UInt64(text.utf8.count), to: &bytes)
            bytes.append(contentsOf: text.utf8)
        }
        appendVarint(UInt64(reports.count), to: &bytes)
        return bytes + records
    }

    /// Merges the blob's reports of the keys `wanted` (by their hash) into `reports`.
    /// - Throws: `CorruptBucketError` when the bytes are not such a blob.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, wanted: [Int64: ClientReport.Key], into reports: inout [ClientReport.Key: ClientReport]
    ) throws {
        var reader = VarintReader(bytes: bytes)
        let stringCount = try reader.count()
        var ranges: [Range<Int>] = []
        for _ in 0..<stringCount {
            let length = Int(try reader.count())
            guard length <= bytes.count - reader.position else { throw CorruptBucketError(detail: "a string cut short") }
            ranges.append(reader.position..<reader.position + length)
            reader.position += length
        }
        func string(_ id: UInt64) throws -> String {
            guard id < UInt64(ranges.count) else { throw CorruptBucketError(detail: "a string id beyond the table") }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[ranges[Int(id)]]), as: UTF8.self)
        }
        let count = try reader.count()
        for _ in 0..<count {
            let hash = Int64(bitPattern: try reader.next())
            let grant = try reader.next(), last = Int64(bitPattern: try reader.next()), status = try reader.next()
            let product = try reader.next(), plan = try reader.next(), action = try reader.next()
            let result = try reader.next(), error = try reader.next()
            guard let key = wanted[hash] else { continue }
            guard status <= UInt64(UInt32.max) + 1 else { throw CorruptBucketError(detail: "a status of \(status)") }
            let report = ClientReport(
                key: key, productID: try string(product), planID: plan == 0 ? nil : try string(plan - 1),
                actionType: try string(action), firstGrantMillis: grant == 0 ? nil : Int64(bitPattern: grant &- 1), lastMillis: last,
                lastResult: ResultType(rawValue: try string(result)) ?? .start,
                lastStatusCode: status == 0 ? nil : Int(Int32(truncatingIfNeeded: status - 1)),
                lastErrorDescription: error == 0 ? nil : try string(error - 1))
            if reports[key] == nil { reports[key] = report } else { reports[key]!.merge(report) }
        }
        guard reader.isAtEnd else { throw CorruptBucketError(detail: "bytes after the last report") }
    }
}
