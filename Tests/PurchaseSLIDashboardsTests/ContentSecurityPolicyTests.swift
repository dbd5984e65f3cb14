import Foundation
import Testing

@testable import PurchaseSLIRendering

@Suite struct ContentSecurityPolicyTests {
    /// FIPS 180-4 examples (NIST CSRC "SHA256.pdf", "SHA2_Additional.pdf").
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",  // 448 bits: the padding needs a second block
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func sha256MatchesNISTVectors(message: String, digest: String) {
        #expect(hex(SHA256.digest(Array(message.utf8))) == digest)
    }

    @Test func sha256OfAMillionAs() {
        #expect(
            hex(SHA256.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// The hash in the policy is that of the `<style>` element's text as the page carries it, byte for
    /// byte: the browser hashes exactly that, and refuses the stylesheet when they differ.
    @Test func thePolicyHashesTheStylesheetThePageCarries() throws {
        let page = HTMLDocument(
            title: "t", subtitle: "s", navigation: [(title: "Index", href: "index.html")],
            body: "<p>x</p>", generatedAtSeconds: 0
        ).rendered
        let style = try #require(page.between("<style>", "</style>"))
        // The attribute value is escaped like any other (' as &#39;); the browser reads it unescaped.
        let policy = try #require(page.between("<meta http-equiv=\"Content-Security-Policy\" content=\"", "\">"))
            .replacingOccurrences(of: "&#39;", with: "'")
        let hash = try #require(policy.between("style-src 'sha256-", "'"))
        #expect(hash == Data(SHA256.digest(Array(style.utf8))).base64EncodedString())
        #expect(hash.count == 44 && hash.hasSuffix("="))
        #expect(policy.hasPrefix("default-src 'none';"))
        #expect(!policy.contains("unsafe-inline") && !policy.contains("script-src"))
        #expect(page.components(separatedBy: "<style").count == 2, "one stylesheet, the one hashed")
    }
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}
