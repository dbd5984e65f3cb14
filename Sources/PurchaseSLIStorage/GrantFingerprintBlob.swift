/// The times and transaction fingerprints (``GrantFingerprint``) of one part's grants, stored apart from
/// the grants' blob (``GrantBlob``) so that a store finds repeated grants by reading 10 bytes per grant
/// rather than every grant written out: per grant, in the order of the grants' blob, its time within the
/// minute in milliseconds (2 bytes) and its transaction id's fingerprint (8 bytes), little-endian.
enum GrantFingerprintBlob {
    /// The bytes per grant.
    static let width = 10

    /// Appends a grant `offset` milliseconds into its minute, of transaction fingerprint `fingerprint`.
    static func append(offset: Int64, fingerprint: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: UInt16(offset).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: fingerprint.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends the grants of `bytes`, a blob of minute `minute`, whose time is in `range` (milliseconds).
    /// - Throws: `CorruptBucketError` when the bytes are not such a blob.
    static func decode(_ bytes: UnsafeRawBufferPointer, minute: Int64, in range: Range<Int64>, into grants: inout [GrantFingerprint]) throws {
        guard bytes.count % width == 0 else { throw CorruptBucketError(detail: "\(bytes.count) bytes, not \(width) per grant") }
        for start in stride(from: 0, to: bytes.count, by: width) {
            let offset = Int64(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt16.self)))
            guard offset < .millisPerMinute else { throw CorruptBucketError(detail: "a time \(offset) ms into its minute") }
            let millis = minute &* .millisPerMinute &+ offset
            guard range.contains(millis) else { continue }
            let fingerprint = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 2, as: UInt64.self))
            grants.append(GrantFingerprint(millis: millis, transaction: fingerprint))
        }
    }

    /// The blob of the grants of a grants' blob of minute `minute` (stored before fingerprints were kept apart).
    /// - Throws: `CorruptBucketError` when the bytes are not a grants' blob.
    static func make(fromGrants bytes: UnsafeRawBufferPointer, minute: Int64) throws -> [UInt8] {
        var fingerprints: [GrantFingerprint] = []
        var buffer: [UInt8] = []
        try GrantBlob.fingerprints(bytes, minute: minute, in: minute * 60_000..<(minute + 1) * .millisPerMinute, using: &buffer, into: &fingerprints)
        var blob: [UInt8] = []
        blob.reserveCapacity(fingerprints.count * width)
        for grant in fingerprints { append(offset: grant.millis - minute * .millisPerMinute, fingerprint: grant.transaction, to: &blob) }
        return blob
    }
}
