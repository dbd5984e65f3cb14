import Testing

@testable import PurchaseSLIRendering

@Suite struct ShellWordTests {
    @Test(
        "an option's value that begins with - is joined to it with =, any other follows it",
        arguments: [
            ("coins_100", ["--product", "coins_100"]), ("-rf", ["--product=-rf"]), ("--help", ["--product=--help"]), ("", ["--product", ""]),
        ])
    func option(value: String, words: [String]) {
        #expect(ShellWord.option("product", value) == words)
    }
}
