import Crypto
import Foundation
import Testing

@testable import PurchaseSLIRendering

@Suite struct ContentSecurityPolicyTests {
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
        #expect(hash == Data(SHA256.hash(data: Array(style.utf8))).base64EncodedString())
        #expect(hash.count == 44 && hash.hasSuffix("="))
        #expect(policy.hasPrefix("default-src 'none';"))
        #expect(!policy.contains("unsafe-inline") && !policy.contains("script-src"))
        #expect(page.components(separatedBy: "<style").count == 2, "one stylesheet, the one hashed")
    }
}
