/// A stable 64-bit hash of an eventID, the key under which duplicates are recognised.
///
/// FNV-1a over the UTF-8 bytes followed by a 64-bit finaliser (from MurmurHash3), so that it is the
/// same on every run and platform (Swift's `Hasher` is seeded per process). O(n) in the id's length.
public enum EventIDHash {
    /// The hash of `eventID`, as a signed value ready to store in SQLite.
    public static func hash(_ eventID: String) -> Int64 {
        hash(eventID, prefix: "")
    }

    /// The hash of `prefix` followed by `text`, without joining them (the same as hashing the joined
    /// string): what keys of several kinds are stored under.
    public static func hash(_ text: String, prefix: StaticString) -> Int64 {
        var state: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ bytes: UnsafeBufferPointer<UInt8>) {
            for byte in bytes {
                state ^= UInt64(byte)
                state &*= 0x0000_0100_0000_01B3
            }
        }
        prefix.withUTF8Buffer(add)
        var copy = text
        copy.withUTF8(add)
        state ^= state >> 33
        state &*= 0xff51_afd7_ed55_8ccd
        state ^= state >> 33
        state &*= 0xc4ce_b9fe_1a85_ec53
        state ^= state >> 33
        return Int64(bitPattern: state)
    }
}
