/// The UUID an app passes to the store when it starts a purchase, which the store hands back with the
/// charge: StoreKit's `appAccountToken`.
public enum AppAccountToken {
    /// `text` lowercased when it is a UUID in its usual form (8-4-4-4-12 hexadecimal digits, either
    /// case), else nil. StoreKit prints UUIDs in capitals, the App Store's notifications in small letters.
    public static func normalized(_ text: String) -> String? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return nil }
        var lowered: [UInt8] = []
        lowered.reserveCapacity(36)
        for (index, byte) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
                lowered.append(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): lowered.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): lowered.append(byte + 32)
            default: return nil
            }
        }
        return String(decoding: lowered, as: UTF8.self)
    }
}
