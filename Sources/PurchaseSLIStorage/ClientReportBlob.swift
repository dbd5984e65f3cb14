package import PurchaseSLICore

/// What a batch's events reported in one minute about their transaction ids (else account tokens), as
/// one blob: the strings the reports use, then a record per report: the 8-byte hash of its key's kind
/// and text (a reader knows the keys it looks for), then varints: its grant, its time within the
/// minute, status, and the string ids of product, plan, action, result and error. About 18 bytes.
///
/// Stored per minute rather than per key, reports are appended in time order: a random key per purchase
/// made a keyed table cost more to write than everything else an event writes (a B-tree insert at a random
/// place for each of them, ten times the ingest time).
package enum ClientReportBlob {
    /// The stored key of a report: a stable 64-bit hash of its kind and text.
    package static func hash(of key: ClientReport.Key) -> Int64 {
        switch key {
        case .transactionID(let id): EventIDHash.hash(id, prefix: "t:")
        case .appAccountToken(let token): EventIDHash.hash(token, prefix: "a:")
        }
    }

    /// Builds the blobs of reports, one per minute of their latest event, record by record: an event's
    /// report is written as it is (a key reported twice is merged when read), with no dictionary of
    /// reports and no string copied per event.
    struct Encoder {
        /// One minute's blob under construction.
        private struct Part {
            var strings = BlobStrings()
            var records: [UInt8] = []
            var count = 0

            /// Appends a record: the hash in 8 bytes; the time within its minute; the grant as "at that
            /// time" (an event's own report) or as its distance from it.
            mutating func append(
                hash: Int64, firstGrantMillis: Int64?, lastMillis: Int64, status: Int?, product: String, plan: String?, action: String,
                result: String, error: String?
            ) {
                withUnsafeBytes(of: UInt64(bitPattern: hash).littleEndian) { records.append(contentsOf: $0) }
                appendVarint(firstGrantMillis.map { $0 == lastMillis ? 1 : 2 + zigzag($0 &- lastMillis) } ?? 0, to: &records)
                appendVarint(UInt64(lastMillis.floorDividedBy(.millisPerMinute).remainder), to: &records)
                appendVarint(status.map { UInt64(UInt32(truncatingIfNeeded: $0)) + 1 } ?? 0, to: &records)
                // Each id appended as it is found (an array of them would be an allocation per event).
                appendVarint(strings.id(product), to: &records)
                appendVarint(strings.optionalID(plan), to: &records)
                appendVarint(strings.id(action), to: &records)
                appendVarint(strings.id(result), to: &records)
                appendVarint(strings.optionalID(error), to: &records)
                count += 1
            }
        }

        private var parts: [Int64: Part] = [:]
        private var grants: [Int64: GrantBlob.Part] = [:]

        /// Adds what `event` reports about its transaction id, else its account token (nothing when it
        /// names neither), and the grant it reports (``GrantBlob``).
        mutating func add(_ event: UnsafePointer<PurchaseEvent>) {
            if event.pointee.grantedTransactionID != nil {
                grants[event.pointee.timestampMillis.floorDividedBy(.millisPerMinute).quotient, default: GrantBlob.Part()].add(event)
            }
            guard
                let key = event.pointee.transactionID.map(ClientReport.Key.transactionID)
                    ?? event.pointee.appAccountToken.map(ClientReport.Key.appAccountToken)
            else { return }
            let millis = event.pointee.timestampMillis
            let result = event.pointee.resultType
            parts[millis.floorDividedBy(.millisPerMinute).quotient, default: Part()].append(
                hash: ClientReportBlob.hash(of: key), firstGrantMillis: result.isGrant ? millis : nil, lastMillis: millis,
                status: event.pointee.statusCode, product: event.pointee.productID, plan: event.pointee.planID,
                action: event.pointee.actionType.rawValue, result: result.rawValue, error: event.pointee.errorDescription)
        }

        /// Adds a report (merged from several events, or read from an older table).
        mutating func add(_ report: ClientReport) {
            parts[report.lastMillis.floorDividedBy(.millisPerMinute).quotient, default: Part()].append(
                hash: ClientReportBlob.hash(of: report.key), firstGrantMillis: report.firstGrantMillis, lastMillis: report.lastMillis,
                status: report.lastStatusCode, product: report.productID, plan: report.planID, action: report.actionType,
                result: report.lastResult.rawValue, error: report.lastErrorDescription)
        }

        /// The blobs, by minute.
        func blobs() -> [ClientReportMinute] {
            parts.sorted { $0.key < $1.key }.map { minute, part in
                var bytes = part.strings.encoded()
                appendVarint(UInt64(part.count), to: &bytes)
                let grants = grants[minute]
                return ClientReportMinute(
                    minute: minute, reports: bytes + part.records, grants: grants?.encoded(), grantFingerprints: grants?.fingerprints)
            }
        }
    }

    /// Appends the blob's reports of the keys `wanted` (by their hash) whose time is in `range`
    /// (milliseconds) to `reports`, each as stored (one event's, unless merged by an older table).
    /// - Throws: `CorruptBucketError` when the bytes are not such a blob.
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, minute: Int64, wanted: [Int64: ClientReport.Key], in range: Range<Int64>,
        into reports: inout [ClientReport]
    ) throws {
        try forEachRecord(bytes, minute: minute) { record, strings in
            guard let key = wanted[record.hash], range.contains(record.lastMillis) else { return }
            guard record.status <= UInt64(UInt32.max) + 1 else { throw CorruptBucketError(detail: "a status of \(record.status)") }
            reports.append(
                ClientReport(
                    key: key, productID: try strings.string(record.product), planID: try strings.optionalString(record.plan),
                    actionType: try strings.string(record.action), firstGrantMillis: record.firstGrantMillis, lastMillis: record.lastMillis,
                    lastResult: ResultType(rawValue: try strings.string(record.result)) ?? .start,
                    lastStatusCode: record.status == 0 ? nil : Int(Int32(truncatingIfNeeded: record.status - 1)),
                    lastErrorDescription: try strings.optionalString(record.error)))
        }
    }

    /// Appends the outcome of every report of the blob whose time is in `range` (milliseconds) to
    /// `outcomes`, by the hash of its key, only those of `keyHashes` when given.
    /// - Throws: `CorruptBucketError` when the bytes are not such a blob.
    package static func decodeOutcomes(
        _ bytes: UnsafeRawBufferPointer, minute: Int64, in range: Range<Int64>, keyHashes: Set<Int64>?, into outcomes: inout [ReportedOutcome]
    ) throws {
        try forEachRecord(bytes, minute: minute) { record, strings in
            guard range.contains(record.lastMillis), keyHashes?.contains(record.hash) ?? true else { return }
            outcomes.append(
                ReportedOutcome(
                    keyHash: record.hash, productID: try strings.string(record.product), planID: try strings.optionalString(record.plan),
                    actionType: try strings.string(record.action), result: ResultType(rawValue: try strings.string(record.result)) ?? .start,
                    millis: record.lastMillis, firstGrantMillis: record.firstGrantMillis))
        }
    }

    /// One record of a blob as stored: its key's hash, its times, its status, and the string ids of its
    /// product, plan, action, result and error.
    private struct Record {
        var hash: Int64
        var grant: UInt64
        var lastMillis: Int64
        var status: UInt64
        var product: UInt64
        var plan: UInt64
        var action: UInt64
        var result: UInt64
        var error: UInt64

        /// The grant's time: none, this record's time, or its distance from it.
        var firstGrantMillis: Int64? { grant == 0 ? nil : grant == 1 ? lastMillis : lastMillis &+ unzigzag(grant - 2) }
    }

    /// Calls `body` with each record of the blob of `minute`, in order, and the blob's strings.
    /// - Throws: `CorruptBucketError` when the bytes are not such a blob.
    private static func forEachRecord(
        _ bytes: UnsafeRawBufferPointer, minute: Int64, _ body: (Record, BlobStrings.Reader) throws -> Void
    ) throws {
        var reader = VarintReader(bytes: bytes)
        let strings = try BlobStrings.Reader(&reader)
        let count = try reader.count()
        for _ in 0..<count {
            guard bytes.count - reader.position >= 8 else { throw CorruptBucketError(detail: "a key cut short") }
            var hashBits: UInt64 = 0
            withUnsafeMutableBytes(of: &hashBits) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[reader.position..<reader.position + 8]))
            }
            reader.position += 8
            let hash = Int64(bitPattern: UInt64(littleEndian: hashBits))
            let grant = try reader.next()
            let offset = try reader.next()
            let status = try reader.next()
            guard offset < .millisPerMinute else { throw CorruptBucketError(detail: "a time \(offset) ms into its minute") }
            let record = Record(
                hash: hash, grant: grant, lastMillis: minute &* .millisPerMinute &+ Int64(offset), status: status, product: try reader.next(),
                plan: try reader.next(), action: try reader.next(), result: try reader.next(), error: try reader.next())
            try body(record, strings)
        }
        guard reader.isAtEnd else { throw CorruptBucketError(detail: "bytes after the last report") }
    }
}

extension ClientReportBlob {
    /// The blob with only the reports whose key hash is in `kept` (its string table as it was) and how many
    /// it holds, or nil when it keeps them all. O(reports).
    /// - Throws: `CorruptBucketError` when the bytes are not such a blob.
    package static func keeping(_ bytes: UnsafeRawBufferPointer, hashes kept: Set<Int64>) throws -> (blob: [UInt8], count: Int)? {
        var reader = VarintReader(bytes: bytes)
        _ = try BlobStrings.Reader(&reader)
        let header = reader.position
        let count = try reader.count()
        var records: [UInt8] = []
        var keptCount: UInt64 = 0
        for _ in 0..<count {
            let start = reader.position
            guard bytes.count - start >= 8 else { throw CorruptBucketError(detail: "a key cut short") }
            var hashBits: UInt64 = 0
            withUnsafeMutableBytes(of: &hashBits) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[start..<start + 8])) }
            reader.position += 8
            for _ in 0..<8 { _ = try reader.next() }
            guard kept.contains(Int64(bitPattern: UInt64(littleEndian: hashBits))) else { continue }
            records += bytes[start..<reader.position]
            keptCount += 1
        }
        guard reader.isAtEnd else { throw CorruptBucketError(detail: "bytes after the last report") }
        guard keptCount < count else { return nil }
        var blob = Array(bytes[0..<header])
        appendVarint(keptCount, to: &blob)
        return (blob + records, Int(keptCount))
    }

    /// The stored hashes of the transaction ids and account tokens of `notifications`.
    package static func hashes(naming notifications: some Sequence<(transactionID: String?, appAccountToken: String?)>) -> Set<Int64> {
        var hashes = Set<Int64>()
        for named in notifications {
            if let id = named.transactionID { hashes.insert(hash(of: .transactionID(id))) }
            if let token = named.appAccountToken { hashes.insert(hash(of: .appAccountToken(token))) }
        }
        return hashes
    }
}

/// One stored part of a minute of client reports: the reports (``ClientReportBlob``) and the grants
/// (``GrantBlob``) of one batch's events of that minute. Every grant names a transaction, so a minute with
/// grants has reports.
package struct ClientReportMinute: Sendable, Hashable {
    /// The minute (since the epoch).
    package var minute: Int64
    /// The reports' blob.
    package var reports: [UInt8]
    /// The grants' blob, or nil when the part has none.
    package var grants: [UInt8]?
    /// The grants' times and fingerprints (``GrantFingerprintBlob``), or nil when not made: a part read
    /// back from a store, which keeps them apart (SQLite) or not at all.
    package var grantFingerprints: [UInt8]?
    /// When its batch was received (seconds since the epoch): a part is settled 9 days after that and after
    /// its minute (``ClientReport/settleAfterMillis``), so a file read today is settled 9 days from now.
    package var receivedSeconds: Int64

    /// Creates a part.
    package init(minute: Int64, reports: [UInt8], grants: [UInt8]? = nil, grantFingerprints: [UInt8]? = nil, receivedSeconds: Int64 = 0) {
        self.minute = minute
        self.reports = reports
        self.grants = grants
        self.grantFingerprints = grantFingerprints
        self.receivedSeconds = receivedSeconds
    }
}
