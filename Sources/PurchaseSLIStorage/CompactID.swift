/// An id (an event id, a transaction id) written in a blob as compactly as its shape allows, read back
/// exactly: a canonical UUID, all lower or all upper case, as 16 bytes; a decimal number without a leading
/// zero (App Store transaction ids) as a varint; anything else as its UTF-8 length and bytes. The first
/// varint says which: a length, or one of the four largest numbers of two varint bytes, which no id's
/// length reached before (ids are 128 bytes at most), so blobs written before the compact shapes read as
/// they did; a longer id is written after a marker of its own.
enum CompactID {
    /// The markers: an id of 16,380 bytes or more (its length follows), and the compact shapes.
    private static let long: UInt64 = 16_380
    private static let lowercaseUUID: UInt64 = 16_381
    private static let uppercaseUUID: UInt64 = 16_382
    private static let decimal: UInt64 = 16_383
    private static let lowerDigits = Array("0123456789abcdef".utf8)
    private static let upperDigits = Array("0123456789ABCDEF".utf8)

    /// Appends `text` to `bytes` in its most compact shape.
    static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            if let value = decimalValue(utf8) {
                appendVarint(decimal, to: &bytes)
                appendVarint(value, to: &bytes)
                return
            }
            if appendUUID(utf8, to: &bytes) { return }
            appendInFull(utf8, to: &bytes)
        }
    }

    /// Appends `utf8` as an id in full: its length (after the marker of a long one) and its bytes.
    private static func appendInFull(_ utf8: some Collection<UInt8>, to bytes: inout [UInt8]) {
        if utf8.count >= long { appendVarint(long, to: &bytes) }
        appendVarint(UInt64(utf8.count), to: &bytes)
        bytes.append(contentsOf: utf8)
    }

    /// The 64-bit FNV-1a hash of the bytes `append` writes for `id`: equal ids, equal fingerprints, however
    /// a blob stored them (``fingerprint(skipping:using:)``), so a blob's id can be told apart from a wanted
    /// one without being read. `bytes` is a buffer to reuse.
    static func fingerprint(of id: String, using bytes: inout [UInt8]) -> UInt64 {
        bytes.removeAll(keepingCapacity: true)
        append(id, to: &bytes)
        return bytes.withUnsafeBytes { fingerprint(of: $0) }
    }

    /// The fingerprint of an id `append` wrote as `bytes` (``fingerprint(of:using:)``).
    static func fingerprint(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// Moves `reader` past an id a blob holds, without reading it, and returns its fingerprint
    /// (``fingerprint(of:using:)``): of its bytes as stored, or, for an id stored in full that `append`
    /// now writes compactly (as blobs held every id before the compact shapes), of the compact bytes,
    /// written to `bytes`.
    /// - Throws: `CorruptBucketError` when the bytes end early.
    static func fingerprint(skipping reader: inout VarintReader, using bytes: inout [UInt8]) throws -> UInt64 {
        let start = reader.position
        let head = try reader.next()
        let textStart = reader.position
        reader.position = start
        try skip(&reader)
        let stored = UnsafeRawBufferPointer(rebasing: reader.bytes[start..<reader.position])
        // Markers and long ids are as `append` writes them; so is an id in full of no compact shape (only
        // a decimal of up to 19 digits and a UUID of 36 characters have one).
        guard head <= 19 || head == 36 else { return fingerprint(of: stored) }
        let text = UnsafeRawBufferPointer(rebasing: reader.bytes[textStart..<reader.position]).assumingMemoryBound(to: UInt8.self)
        bytes.removeAll(keepingCapacity: true)
        if let value = decimalValue(text) {
            appendVarint(decimal, to: &bytes)
            appendVarint(value, to: &bytes)
        } else if !appendUUID(text, to: &bytes) {
            return fingerprint(of: stored)
        }
        return bytes.withUnsafeBytes { fingerprint(of: $0) }
    }

    /// Moves `reader` past an id `append` wrote, without reading it.
    /// - Throws: `CorruptBucketError` when the bytes end early.
    static func skip(_ reader: inout VarintReader) throws {
        var head = try reader.next()
        switch head {
        case decimal:
            _ = try reader.next()
        case lowercaseUUID, uppercaseUUID:
            guard reader.bytes.count - reader.position >= 16 else { throw CorruptBucketError(detail: "a UUID cut short") }
            reader.position += 16
        default:
            if head == long { head = try reader.next() }
            guard head <= UInt64(reader.bytes.count - reader.position) else { throw CorruptBucketError(detail: "an id cut short") }
            reader.position += Int(head)
        }
    }

    /// Reads an id `append` wrote (or a length and bytes, as older blobs hold).
    /// - Throws: `CorruptBucketError` when the bytes end early.
    static func read(_ reader: inout VarintReader) throws -> String {
        var head = try reader.next()
        switch head {
        case decimal:
            return String(try reader.next())
        case lowercaseUUID, uppercaseUUID:
            guard reader.bytes.count - reader.position >= 16 else { throw CorruptBucketError(detail: "a UUID cut short") }
            defer { reader.position += 16 }
            let digits = head == uppercaseUUID ? upperDigits : lowerDigits
            let bytes = UnsafeRawBufferPointer(rebasing: reader.bytes[reader.position..<reader.position + 16])
            // Written in place: one allocation an id (a read decodes two ids a grant).
            return String(
                unsafeUninitializedCapacity: 36,
                initializingUTF8With: { text in
                    var written = 0
                    for (index, byte) in bytes.enumerated() {
                        if index == 4 || index == 6 || index == 8 || index == 10 {
                            text[written] = UInt8(ascii: "-")
                            written += 1
                        }
                        text[written] = digits[Int(byte >> 4)]
                        text[written + 1] = digits[Int(byte & 0x0F)]
                        written += 2
                    }
                    return written
                })
        default:
            if head == long { head = try reader.next() }
            guard head <= UInt64(reader.bytes.count - reader.position) else { throw CorruptBucketError(detail: "an id cut short") }
            let length = Int(head)
            defer { reader.position += length }
            return String(decoding: UnsafeRawBufferPointer(rebasing: reader.bytes[reader.position..<reader.position + length]), as: UTF8.self)
        }
    }

    /// The value of a decimal number of 1 to 19 digits without a leading zero ("0" alone included), else nil.
    private static func decimalValue(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard (1...19).contains(utf8.count), utf8.count == 1 || utf8[0] != UInt8(ascii: "0") else { return nil }
        var value: UInt64 = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Appends the marker of its case and the 16 bytes of a canonical UUID (8-4-4-4-12 hex digits) whose
    /// letters are all lower or all upper case, and returns true; appends nothing for anything else.
    private static func appendUUID(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) -> Bool {
        guard utf8.count == 36 else { return false }
        var raw: (UInt64, UInt64) = (0, 0)
        var lower = false
        var upper = false
        var nibbles = 0
        for (index, byte) in utf8.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
                continue
            }
            let nibble: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"):
                nibble = UInt64(byte - UInt8(ascii: "a") + 10)
                lower = true
            case UInt8(ascii: "A")...UInt8(ascii: "F"):
                nibble = UInt64(byte - UInt8(ascii: "A") + 10)
                upper = true
            default: return false
            }
            if nibbles < 16 { raw.0 = raw.0 << 4 | nibble } else { raw.1 = raw.1 << 4 | nibble }
            nibbles += 1
        }
        guard !(lower && upper) else { return false }
        appendVarint(upper ? uppercaseUUID : lowercaseUUID, to: &bytes)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: raw.0 >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: raw.1 >> UInt64(shift))) }
        return true
    }
}
