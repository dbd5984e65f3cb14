/// gzip compression in plain Swift (the SDK depends on Foundation only, which has no gzip on Linux):
/// DEFLATE with LZ77 matches found through hash chains over a 32 KiB window, coded with the fixed
/// Huffman codes of RFC 1951 in one block, in the gzip framing of RFC 1952. NDJSON events, whose keys
/// repeat on every line, shrink to about a fifth. O(n × chain length).
enum GzipEncoder {
    /// `input` as one gzip member.
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var writer = BitWriter()
        writer.bytes = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]  // magic, deflate, no flags, no time, unknown OS
        writer.write(1, count: 1)  // the final block
        writer.write(1, count: 2)  // fixed Huffman codes
        deflate(input, into: &writer)
        writer.writeLiteral(256)  // end of block
        writer.alignToByte()
        let crc = CRC32.checksum(input)
        let size = UInt32(truncatingIfNeeded: input.count)
        for value in [crc, size] {
            for shift in stride(from: 0, to: 32, by: 8) { writer.bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }
        return writer.bytes
    }

    private static let windowSize = 1 << 15
    private static let minimumMatch = 3, maximumMatch = 258, maximumChain = 48

    private static func deflate(_ input: [UInt8], into writer: inout BitWriter) {
        let count = input.count
        var head = [Int32](repeating: -1, count: 1 << 15)
        var previous = [Int32](repeating: -1, count: windowSize)
        input.withUnsafeBufferPointer { bytes in
            func hash(_ position: Int) -> Int {
                (Int(bytes[position]) << 10 ^ Int(bytes[position + 1]) << 5 ^ Int(bytes[position + 2])) & 0x7FFF
            }
            func insert(_ position: Int) {
                guard position + 2 < count else { return }
                let key = hash(position)
                previous[position & (windowSize - 1)] = head[key]
                head[key] = Int32(position)
            }
            var position = 0
            while position < count {
                var bestLength = 0
                var bestDistance = 0
                if position + minimumMatch <= count {
                    var candidate = Int(head[hash(position)])
                    var chain = 0
                    let limit = min(maximumMatch, count - position)
                    while candidate >= 0, position - candidate <= windowSize, chain < maximumChain {
                        if bytes[candidate + bestLength] == bytes[position + bestLength] {
                            var length = 0
                            while length < limit, bytes[candidate + length] == bytes[position + length] { length += 1 }
                            if length > bestLength {
                                (bestLength, bestDistance) = (length, position - candidate)
                                if length == limit { break }
                            }
                        }
                        let next = Int(previous[candidate & (windowSize - 1)])
                        guard next < candidate else { break }
                        candidate = next
                        chain += 1
                    }
                }
                if bestLength >= minimumMatch {
                    writer.writeMatch(length: bestLength, distance: bestDistance)
                    for offset in 0..<bestLength { insert(position + offset) }
                    position += bestLength
                } else {
                    writer.writeLiteral(Int(bytes[position]))
                    insert(position)
                    position += 1
                }
            }
        }
    }
}

/// Bits written least significant first, as DEFLATE packs them; Huffman codes most significant first.
private struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var filled = 0

    mutating func write(_ value: Int, count: Int) {
        buffer |= UInt64(value) << UInt64(filled)
        filled += count
        while filled >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            filled -= 8
        }
    }

    mutating func alignToByte() {
        if filled > 0 { write(0, count: 8 - filled) }
    }

    private mutating func writeCode(_ code: Int, length: Int) {
        var reversed = 0
        for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
        write(reversed, count: length)
    }

    /// A literal byte (0–255) or the end of block (256) in the fixed literal/length code.
    mutating func writeLiteral(_ symbol: Int) {
        switch symbol {
        case 0...143: writeCode(0x30 + symbol, length: 8)
        case 144...255: writeCode(0x190 + symbol - 144, length: 9)
        case 256...279: writeCode(symbol - 256, length: 7)
        default: writeCode(0xC0 + symbol - 280, length: 8)
        }
    }

    mutating func writeMatch(length: Int, distance: Int) {
        var code = 0
        while code + 1 < Self.lengthBases.count, Self.lengthBases[code + 1] <= length { code += 1 }
        writeLiteral(257 + code)
        if Self.lengthExtraBits[code] > 0 { write(length - Self.lengthBases[code], count: Self.lengthExtraBits[code]) }
        var distanceCode = 0
        while distanceCode + 1 < Self.distanceBases.count, Self.distanceBases[distanceCode + 1] <= distance { distanceCode += 1 }
        writeCode(distanceCode, length: 5)
        if Self.distanceExtraBits[distanceCode] > 0 {
            write(distance - Self.distanceBases[distanceCode], count: Self.distanceExtraBits[distanceCode])
        }
    }

    // RFC 1951, 3.2.5: the base value and extra bits of each length (257–285) and distance (0–29) code.
    private static let lengthBases = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    private static let lengthExtraBits = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBases = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtraBits = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
}

/// The CRC-32 of gzip's trailer (polynomial 0xEDB88320).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
