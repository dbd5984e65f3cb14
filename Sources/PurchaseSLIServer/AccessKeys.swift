/// Keys a request presents: the public, write-only ingest keys that apps send events with (like a Sentry
/// DSN), or the secret read keys of queries, pages and metrics. Several can be active at once, so a key
/// can be rotated without dropping traffic.
public struct AccessKeys: Sendable, Hashable {
    private let keys: [[UInt8]]

    /// Keys from their text; blank entries are ignored.
    public init(_ keys: some Sequence<String>) {
        self.keys = keys.filter { !$0.isEmpty }.map { Array($0.utf8) }
    }

    /// Keys from a file's text: one key per line; blank lines and lines starting with `#` are ignored.
    public init(fileContents: String) {
        self.init(
            fileContents.split(whereSeparator: \.isNewline).map {
                String($0.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
            }.filter { !$0.hasPrefix("#") })
    }

    /// Whether any key is configured (otherwise every request is accepted).
    public var isEnabled: Bool { !keys.isEmpty }

    /// How many keys are accepted.
    public var count: Int { keys.count }

    /// The matching key, compared in constant time per key (the time depends only on the lengths), or nil.
    public func match(_ presented: String) -> String? {
        let bytes = Array(presented.utf8)
        var found: [UInt8]?
        for key in keys where Self.constantTimeEquals(key, bytes) { found = key }
        return found.map { String(decoding: $0, as: UTF8.self) }
    }

    /// A key that is also one of `other`'s, or nil.
    public func sharedKey(with other: AccessKeys) -> String? {
        keys.first { other.keys.contains($0) }.map { String(decoding: $0, as: UTF8.self) }
    }

    private static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: lhs.count ^ rhs.count)
        for index in 0..<max(lhs.count, rhs.count) {
            difference |= (index < lhs.count ? lhs[index] : 0) ^ (index < rhs.count ? rhs[index] : 0)
        }
        return difference == 0 && lhs.count == rhs.count
    }
}
