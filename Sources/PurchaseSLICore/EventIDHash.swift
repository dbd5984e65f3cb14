/// A stable 64-bit hash of an eventID, the key under which duplicates are recognised.
///
/// FNV-1a over the UTF-8 bytes followed by a 64-bit finaliser (from MurmurHash3), so that it is the
/// same on every run and platform (Swift's `Hasher` is seeded per process). O(n) in the id's length.
public enum EventIDHash {
    /// The hash of `eventID`, as a signed value ready to store in SQLite.
    public static func hash(_ eventID: String) -> Int64 {
        var copy = eventID
        var state: UInt64 = 0xcbf2_9ce4_8422_2325
        copy.withUTF8 { bytes in
            for byte in bytes {
                state ^= UInt64(byte)
                state &*= 0x0000_0100_0000_01B3
            }
        }
        state ^= state >> 33
        state &*= 0xff51_afd7_ed55_8ccd
        state ^= state >> 33
        state &*= 0xc4ce_b9fe_1a85_ec53
        state ^= state >> 33
        return Int64(bitPattern: state)
    }
}
