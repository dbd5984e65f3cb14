import PurchaseSLIApplication
import Testing

/// An app id as a page's file or directory name: what `serve` serves, two ids never one name.
@Suite struct AppSlugTests {
    @Test(arguments: [
        ("com.example.coins", "com.example.coins"),
        ("com.Example.App", "com.-45xample.-41pp"),
        ("com.example_app", "com.example-5fapp"),
        ("com.example-app", "com.example-2dapp"),
        (".hidden", "-2ehidden"),
        ("a..b", "a.-2eb"),
        ("trailing.", "trailing-2e"),
        ("ü", "-c3-bc"),
        ("../etc", "-2e-2e-2fetc"),
    ])
    func writesEachByteItMayNotKeep(app: String, slug: String) {
        #expect(AppSlug.of(app) == slug)
    }

    @Test func aLongIdIsCutWithAHashOfTheWhole() {
        let long = String(repeating: "com.example.", count: 20)
        let other = String(repeating: "com.example.", count: 19) + "com.example.x"
        let (slug, otherSlug) = (AppSlug.of(long), AppSlug.of(other))
        #expect(slug.count <= 64 && otherSlug.count <= 64 && slug != otherSlug)
        #expect(slug.hasPrefix("com.example.com") && !slug.contains("..") && AppSlug.of(long) == slug)
    }

    @Test func everySlugIsAServableName() {
        let ids = ["com.example.coins", "A", "-", ".", "..", "a.", "x/y", "\u{202E}evil", String(repeating: "Z", count: 255)]
        for id in ids {
            let slug = AppSlug.of(id)
            #expect(!slug.isEmpty && !slug.hasPrefix(".") && !slug.contains("..") && !slug.hasSuffix("."), "\(id)")
            #expect(slug.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "." }, "\(id)")
        }
        #expect(Set(ids.map(AppSlug.of)).count == ids.count)
    }
}
