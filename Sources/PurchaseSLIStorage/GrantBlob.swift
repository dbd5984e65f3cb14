package import PurchaseSLICore

/// The grants a batch's events reported in one minute (``GrantRecord``), as one blob stored beside the
/// minute's client reports: the strings the grants share (``BlobStrings``), a count, then per grant: its
/// time within the minute, its event id and transaction id written out (``CompactID``: a UUID in 16 bytes,
/// a decimal id as a number, else its length and UTF-8 bytes: each is its own, so a table would only add a
/// lookup), the string ids of product, plan, action,
/// app version, platform, app and currency, and its price in thousandths (zigzag, plus one; 0 without
/// one), all varints. Unlike a report it names its transaction in full: a grant is found by what it
/// names, not looked up by it.
package enum GrantBlob {
    /// One minute's grants under construction.
    struct Part {
        private var strings = BlobStrings()
        private var records: [UInt8] = []
        /// The grants' times and fingerprints (``GrantFingerprintBlob``).
        private(set) var fingerprints: [UInt8] = []
        private var count = 0

        /// Whether it holds no grant.
        var isEmpty: Bool { count == 0 }

        /// Appends the grant of `event`, if it reports one.
        mutating func add(_ event: UnsafePointer<PurchaseEvent>) {
            guard let transactionID = event.pointee.grantedTransactionID else { return }
            let offset = event.pointee.timestampMillis.floorDividedBy(.millisPerMinute).remainder
            appendVarint(UInt64(offset), to: &records)
            CompactID.append(event.pointee.eventID, to: &records)
            let transactionStart = records.count
            CompactID.append(transactionID, to: &records)
            let fingerprint = records.withUnsafeBytes { CompactID.fingerprint(of: UnsafeRawBufferPointer(rebasing: $0[transactionStart...])) }
            GrantFingerprintBlob.append(offset: offset, fingerprint: fingerprint, to: &fingerprints)
            appendVarint(strings.id(event.pointee.productID), to: &records)
            appendVarint(strings.optionalID(event.pointee.planID), to: &records)
            appendVarint(strings.id(event.pointee.actionType.rawValue), to: &records)
            appendVarint(strings.optionalID(event.pointee.appVersion), to: &records)
            appendVarint(strings.optionalID(event.pointee.platform), to: &records)
            appendVarint(strings.optionalID(event.pointee.app), to: &records)
            appendVarint(strings.optionalID(event.pointee.currency), to: &records)
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

    /// The transactions whose grants a read wants (``GrantSelection``), found by their ids' fingerprints
    /// (``CompactID/fingerprint(of:using:)``): a blob's other grants are skipped without reading their ids,
    /// and an id read is checked against the wanted ids of its fingerprint alone (no set of the ids
    /// themselves is built: hashing and comparing a million ids cost more than the read).
    struct Transactions: Sendable {
        private let ids: [String]
        /// The position in `ids` of an id of each fingerprint; -1 for a fingerprint wanted whatever its id.
        private let positions: [UInt64: Int]
        /// The positions of the further ids of a fingerprint that another id holds in `positions`.
        private let sharing: [UInt64: [Int]]

        /// The transactions `selection` names; nil when it names every one.
        init?(_ selection: GrantSelection) {
            switch selection {
            case .every: return nil
            case .transactions(let ids): self.init(ids)
            case .fingerprints(let fingerprints):
                self.init(ids: [], positions: Dictionary(uniqueKeysWithValues: fingerprints.lazy.map { ($0, -1) }), sharing: [:])
            }
        }

        private init(ids: [String], positions: [UInt64: Int], sharing: [UInt64: [Int]]) {
            self.ids = ids
            self.positions = positions
            self.sharing = sharing
        }

        /// Those of `ids` (in any order, an id perhaps more than once).
        private init(_ ids: [String]) {
            var positions: [UInt64: Int] = [:]
            positions.reserveCapacity(ids.count)
            var sharing: [UInt64: [Int]] = [:]
            var bytes: [UInt8] = []
            bytes.reserveCapacity(64)
            for index in ids.indices {
                let fingerprint = CompactID.fingerprint(of: ids[index], using: &bytes)
                guard let held = positions[fingerprint] else {
                    positions[fingerprint] = index
                    continue
                }
                if ids[held] != ids[index], !(sharing[fingerprint]?.contains { ids[$0] == ids[index] } ?? false) {
                    sharing[fingerprint, default: []].append(index)
                }
            }
            self.init(ids: ids, positions: positions, sharing: sharing)
        }

        /// Whether an id stored under `fingerprint` may be wanted (``contains(_:fingerprint:)`` tells).
        func mayContain(fingerprint: UInt64) -> Bool { positions[fingerprint] != nil }

        /// Whether `id`, stored under `fingerprint`, is wanted.
        func contains(_ id: String, fingerprint: UInt64) -> Bool {
            guard let held = positions[fingerprint] else { return false }
            return held < 0 || ids[held] == id || (sharing[fingerprint]?.contains { ids[$0] == id } ?? false)
        }
    }

    /// A store's blobs of grants: calls its argument with each minute that holds grants in a span and each
    /// of that minute's blobs, by minute.
    package typealias Blobs = ((Int64, UnsafeRawBufferPointer) throws -> Void) throws -> Void

    /// The grants of `blobs` made in `[fromMillis, toMillis)`, those of `selection`, by time.
    package static func grants(fromMillis: Int64, toMillis: Int64, of selection: GrantSelection, in blobs: Blobs) throws -> [GrantRecord] {
        var grants = RecordsByTime(order: GrantRecord.byTime)
        let wanted = Transactions(selection)
        try blobs { minute, bytes in
            try grants.append(minute: minute) { try decode(bytes, minute: minute, in: fromMillis..<toMillis, naming: wanted, into: &$0) }
        }
        return grants.sorted()
    }

    /// The time and transaction fingerprint of each grant of `blobs` made in `[fromMillis, toMillis)`.
    package static func fingerprints(fromMillis: Int64, toMillis: Int64, in blobs: Blobs) throws -> [GrantFingerprint] {
        var fingerprints: [GrantFingerprint] = []
        var buffer: [UInt8] = []
        try blobs { minute, bytes in
            try self.fingerprints(bytes, minute: minute, in: fromMillis..<toMillis, using: &buffer, into: &fingerprints)
        }
        return fingerprints
    }

    /// Appends the time and transaction fingerprint of each of the blob's grants whose time is in `range`
    /// (milliseconds) to `grants`, reading no id and no string. `bytes` is a buffer to reuse.
    /// - Throws: `CorruptBucketError` when the bytes are not such a blob.
    static func fingerprints(
        _ bytes: UnsafeRawBufferPointer, minute: Int64, in range: Range<Int64>, using buffer: inout [UInt8],
        into grants: inout [GrantFingerprint]
    ) throws {
        var reader = VarintReader(bytes: bytes)
        try BlobStrings.Reader.skip(&reader)
        let count = try reader.count()
        for _ in 0..<count {
            let millis = try time(&reader, minute: minute)
            try CompactID.skip(&reader)
            let fingerprint = try CompactID.fingerprint(skipping: &reader, using: &buffer)
            // Past the string ids of product, plan, action, app version, platform, app and currency, and the price.
            for _ in 0..<8 { _ = try reader.next() }
            if range.contains(millis) { grants.append(GrantFingerprint(millis: millis, transaction: fingerprint)) }
        }
        guard reader.isAtEnd else { throw CorruptBucketError(detail: "bytes after the last grant") }
    }

    /// Reads a grant's time, `minute` and the offset into it the blob holds.
    private static func time(_ reader: inout VarintReader, minute: Int64) throws -> Int64 {
        let offset = try reader.next()
        guard offset < .millisPerMinute else { throw CorruptBucketError(detail: "a time \(offset) ms into its minute") }
        return minute &* .millisPerMinute &+ Int64(offset)
    }

    /// Appends the blob's grants whose time is in `range` (milliseconds) to `grants`; only those of
    /// `transactions`, when given (the others are skipped unread).
    /// - Throws: `CorruptBucketError` when the bytes are not such a blob.
    private static func decode(
        _ bytes: UnsafeRawBufferPointer, minute: Int64, in range: Range<Int64>, naming transactions: Transactions?,
        into grants: inout [GrantRecord]
    ) throws {
        var reader = VarintReader(bytes: bytes)
        let strings = try BlobStrings.Reader(&reader)
        let count = try reader.count()
        var buffer: [UInt8] = []
        for _ in 0..<count {
            let millis = try time(&reader, minute: minute)
            let eventIDPosition = reader.position
            try CompactID.skip(&reader)
            let transactionPosition = reader.position
            var fingerprint: UInt64 = 0
            if transactions != nil {
                fingerprint = try CompactID.fingerprint(skipping: &reader, using: &buffer)
            } else {
                try CompactID.skip(&reader)
            }
            let isWanted = transactions?.mayContain(fingerprint: fingerprint) ?? true
            let (product, plan, action) = (try reader.next(), try reader.next(), try reader.next())
            let (version, platform, app, currency) = (try reader.next(), try reader.next(), try reader.next(), try reader.next())
            let price = try reader.next()
            guard isWanted, range.contains(millis) else { continue }
            var idReader = reader
            idReader.position = transactionPosition
            let transactionID = try CompactID.read(&idReader)
            guard transactions?.contains(transactionID, fingerprint: fingerprint) ?? true else { continue }
            idReader.position = eventIDPosition
            grants.append(
                GrantRecord(
                    eventID: try CompactID.read(&idReader), transactionID: transactionID, millis: millis, productID: try strings.string(product),
                    planID: try strings.optionalString(plan), actionType: ActionType(rawValue: try strings.string(action)),
                    appVersion: try strings.optionalString(version), platform: try strings.optionalString(platform),
                    app: try strings.optionalString(app), price: price == 0 ? nil : Double(unzigzag(price - 1)) / 1000,
                    currency: try strings.optionalString(currency)))
        }
        guard reader.isAtEnd else { throw CorruptBucketError(detail: "bytes after the last grant") }
    }
}
