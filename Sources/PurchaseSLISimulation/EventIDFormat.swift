/// Writes random bits as UUID-like event ids.
enum EventIDFormat {
    /// 128 bits as a lowercase version-4 UUID (8-4-4-4-12 hex digits).
    static func uuid(high: UInt64, low: UInt64) -> String {
        let high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var position = 0
            var shift: UInt64 = 64
            while shift > 0 {
                shift -= 4
                if shift == 28 || shift == 12 {
                    buffer[position] = 0x2D
                    position += 1
                }  // "-"
                buffer[position] = hexDigit(high >> shift)
                position += 1
            }
            shift = 64
            while shift > 0 {
                shift -= 4
                if shift == 60 || shift == 44 {
                    buffer[position] = 0x2D
                    position += 1
                }
                buffer[position] = hexDigit(low >> shift)
                position += 1
            }
            return position
        }
    }

    private static func hexDigit(_ value: UInt64) -> UInt8 {
        let nibble = UInt8(truncatingIfNeeded: value) & 0xF
        return nibble < 10 ? 0x30 + nibble : 0x57 + nibble  // "0"..."9", "a"..."f"
    }
}
