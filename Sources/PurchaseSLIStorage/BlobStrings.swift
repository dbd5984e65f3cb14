/// The string table a per-minute blob starts with (``ClientReportBlob``, ``GrantBlob``): each distinct
/// string once, as a varint length and its UTF-8 bytes, after a varint count; records refer to them by position.
struct BlobStrings {
    private var strings: [String] = []
    /// The positions by string, once the table outgrows ``scannedCount``.
    private var index: [String: UInt64] = [:]
    /// Up to this many strings are found by comparing each (a minute's few product, version and platform
    /// names, most of them small strings compared in two words): cheaper than hashing.
    private static let scannedCount = 16

    /// The position of `text`, added when new.
    mutating func id(_ text: String) -> UInt64 {
        if strings.count <= Self.scannedCount {
            if let known = strings.firstIndex(of: text) { return UInt64(known) }
        } else if let known = index[text] {
            return known
        }
        strings.append(text)
        if strings.count == Self.scannedCount + 1 {
            index = Dictionary(uniqueKeysWithValues: strings.enumerated().map { ($0.element, UInt64($0.offset)) })
        } else if strings.count > Self.scannedCount + 1 {
            index[text] = UInt64(strings.count - 1)
        }
        return UInt64(strings.count - 1)
    }

    /// The position of `text` plus one, or 0 for nil.
    mutating func optionalID(_ text: String?) -> UInt64 { text.map { id($0) + 1 } ?? 0 }

    /// The table's bytes.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        appendVarint(UInt64(strings.count), to: &bytes)
        for text in strings {
            appendVarint(UInt64(text.utf8.count), to: &bytes)
            bytes.append(contentsOf: text.utf8)
        }
        return bytes
    }

    /// A table read back: where each string lies in the blob.
    struct Reader {
        let bytes: UnsafeRawBufferPointer
        private var ranges: [Range<Int>] = []

        /// Reads the table at `reader`'s position and moves past it.
        /// - Throws: `CorruptBucketError` when a string is cut short.
        init(_ reader: inout VarintReader) throws {
            bytes = reader.bytes
            let count = try reader.count()
            for _ in 0..<count {
                let length = Int(try reader.count())
                guard length <= bytes.count - reader.position else { throw CorruptBucketError(detail: "a string cut short") }
                ranges.append(reader.position..<reader.position + length)
                reader.position += length
            }
        }

        /// Moves `reader` past a table without reading its strings.
        /// - Throws: `CorruptBucketError` when a string is cut short.
        static func skip(_ reader: inout VarintReader) throws {
            let count = try reader.count()
            for _ in 0..<count {
                let length = Int(try reader.count())
                guard length <= reader.bytes.count - reader.position else { throw CorruptBucketError(detail: "a string cut short") }
                reader.position += length
            }
        }

        /// The string at position `id`.
        func string(_ id: UInt64) throws -> String {
            guard id < UInt64(ranges.count) else { throw CorruptBucketError(detail: "a string id beyond the table") }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[ranges[Int(id)]]), as: UTF8.self)
        }

        /// The string at position `id - 1`, or nil for 0.
        func optionalString(_ id: UInt64) throws -> String? { id == 0 ? nil : try string(id - 1) }
    }
}

/// A signed number as an unsigned one with small magnitudes small (0, -1, 1, -2… as 0, 1, 2, 3…).
func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

/// The inverse of ``zigzag(_:)``.
func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
