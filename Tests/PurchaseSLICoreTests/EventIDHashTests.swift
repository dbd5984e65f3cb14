import PurchaseSLICore
import Testing

@Suite struct EventIDHashTests {
    /// A prefixed hash is the hash of the joined text, so keys stored under one stay readable by the other.
    @Test(arguments: ["", "2000000471416906", "8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60", "é∑"])
    func aPrefixedHashIsTheHashOfTheJoinedText(text: String) {
        #expect(EventIDHash.hash(text, prefix: "t:") == EventIDHash.hash("t:" + text))
        #expect(EventIDHash.hash(text, prefix: "t:") != EventIDHash.hash(text, prefix: "a:"))
    }
}
