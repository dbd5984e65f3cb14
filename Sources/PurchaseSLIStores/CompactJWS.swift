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
        let bytes = Array(token.utf8)
        let dot = UInt8(ascii: ".")
        guard let first = bytes.firstIndex(of: dot), let second = bytes[(first + 1)...].firstIndex(of: dot),
            second + 1 < bytes.count, !bytes[(second + 1)...].contains(dot),
            let header = Self.decode(bytes[..<first]), let payload = Self.decode(bytes[(first + 1)..<second])
        else { return nil }
        self.token = token
        self.header = header
        self.payload = payload
    }

    /// Decodes base64url without padding. O(n), byte by byte.
    static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var base64 = Array(text)
        for index in base64.indices {
            if base64[index] == UInt8(ascii: "-") {
                base64[index] = UInt8(ascii: "+")
            } else if base64[index] == UInt8(ascii: "_") {
                base64[index] = UInt8(ascii: "/")
            }
        }
        base64 += Array(repeating: UInt8(ascii: "="), count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: Data(base64)).map { [UInt8]($0) }
    }

    /// Decodes one of its parts as JSON.
    static func decodeJSON<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) -> Value? {
        try? JSONDecoder().decode(type, from: Data(bytes))
    }
}
