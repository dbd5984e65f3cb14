/// What the app was doing: `purchase`, `restore`, `retry`, or another app-defined action token.
public struct ActionType: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The action's spelling as the app sent it.
    public let rawValue: String

    /// Creates an action from its spelling; the caller has validated it with ``isValidToken(_:)``.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A purchase started by the user.
    public static let purchase = ActionType(rawValue: "purchase")
    /// A restore of earlier purchases.
    public static let restore = ActionType(rawValue: "restore")
    /// A re-send of the receipt of an unfinished transaction.
    public static let retry = ActionType(rawValue: "retry")

    /// The actions every team has; others are kept as their own action.
    public static let known: [ActionType] = [.purchase, .restore, .retry]

    public var description: String { rawValue }

    /// Whether `lhs` comes before `rhs` where outputs list actions: the known ones in their order
    /// (purchase, restore, retry), then the others by name.
    public static func isListedBefore(_ lhs: String, _ rhs: String) -> Bool {
        func position(_ action: String) -> Int { known.firstIndex(of: ActionType(rawValue: action)) ?? known.count }
        return (position(lhs), lhs) < (position(rhs), rhs)
    }

    /// Whether `token` matches `[a-zA-Z][a-zA-Z0-9_-]{0,31}`. O(n) in the token's length.
    public static func isValidToken(_ token: some StringProtocol) -> Bool {
        let bytes = token.utf8
        guard let first = bytes.first, bytes.count <= 32, first.isASCIILetter else { return false }
        return bytes.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }
}

extension UInt8 {
    var isASCIILetter: Bool { (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z") }
    var isASCIIDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
}
