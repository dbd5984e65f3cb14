import PurchaseSLIRendering
import Testing

@Suite struct NumberTextTests {
    @Test(
        "money: two decimals and thousands separators; amounts past whole cents (a signed price near Int64.max) in scientific notation, not a trap",
        arguments: [
            (1234.5, "1,234.50 USD"),
            (9.99 * 3, "29.97 USD"),
            (0, "0.00 USD"),
            (Double(Int64.max) / 1000, "9.22e+15 USD"),
            (Double(Int64.max), "9.22e+18 USD"),
            (Double.infinity, "inf USD"),
        ])
    func money(_ amount: Double, _ text: String) {
        #expect(NumberText.money(amount, currency: "USD") == text)
    }
}
