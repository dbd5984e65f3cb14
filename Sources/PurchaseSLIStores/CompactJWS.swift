#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JWS in compact serialization (`header.payload.signature`, base64url), split and its unsigned parts
/// readable before the signature is checked.
struct CompactJWS {
    /// The whole token.
    let token: String
    let header: [UInt8]
    let payload: [UInt8]

    /// Splits `token`; nil unless it has three base64url parts whose first two decode.
    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.decode(parts[0]), let payload = Self.decode(parts[1]), !parts[2].isEmpty
        else { return nil }
        self.token = token
        self.header = header
        self.payload = payload
    }

    /// Decodes base64url without padding.
    static func decode(_ text: Substring) -> [UInt8]? {
        var base64 = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }

    /// Decodes one of its parts as JSON.
    static func decodeJSON<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) -> Value? {
        try? JSONDecoder().decode(type, from: Data(bytes))
    }
}
