import PurchaseSLIAnalysis
import PurchaseSLICore
import Testing

/// A grant's store when no charge names it: the store of the app's platform, in any case.
@Suite struct StorePlatformTests {
    @Test(
        arguments: [
            ("iOS", Store.apple), ("IOS", .apple), ("ios", .apple), ("iPadOS", .apple), ("macOS", .apple), ("tvOS", .apple),
            ("watchOS", .apple), ("visionOS", .apple), ("VISIONOS", .apple), ("Android", .google), ("android", .google),
            ("ANDROID", .google), ("web", nil), ("", nil), ("iosx", nil), ("io", nil), ("İOS", nil), ("i_OS", nil), ("Android ", nil),
        ] as [(String, Store?)])
    func platformNamesItsStore(platform: String, store: Store?) {
        #expect(Store(platform: platform) == store)
    }

    @Test func noPlatformNoStore() {
        #expect(Store(platform: nil) == nil)
    }
}
