/// An app id written as part of a page's file name (`incident-…-com.example.coins.html`), within what
/// `serve` serves (lowercase letters, digits, `-` and `.`, no `..`): lowercase letters, digits and inner
/// dots as they are, every other byte `-` and two hex digits (`com.Example` is `com.-45xample`), so that two
/// ids share a name only past 64 characters, where the first 47 are kept with a 16-digit hash of the whole.
public enum AppSlug {
    /// The longest slug written whole.
    static let longest = 64

    /// The slug of `app`.
    public static func of(_ app: String) -> String {
        let bytes = Array(app.utf8)
        var slug = ""
        for (index, byte) in bytes.enumerated() {
            let isKept =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte == UInt8(ascii: ".") && index > 0 && index < bytes.count - 1 && bytes[index - 1] != UInt8(ascii: "."))
            slug += isKept ? String(UnicodeScalar(byte)) : "-" + hex(UInt64(byte), digits: 2)
        }
        guard slug.count > longest else { return slug }
        var head = String(slug.prefix(longest - 17))
        // A cut never ends on a dot (a name would hold ".." before ".html") nor inside an escape.
        while head.last == "." || head.suffix(2).contains("-") { head.removeLast() }
        return head + "-" + hex(fnv1a(bytes), digits: 16)
    }

    /// `value` in lowercase hex, `digits` wide.
    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// FNV-1a, 64 bits: the same on every machine and run (Swift's own hash is seeded per process).
    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
