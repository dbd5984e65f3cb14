public import PurchaseSLIAnalysis

extension GrantTimes.Time {
    /// "0.9 s", "4 min 12 s", or "not granted".
    public var text: String {
        switch self {
        case .after(let millis): NumberText.elapsed(millis: millis)
        case .notGranted: "not granted"
        }
    }
}

extension GrantTimes.Row {
    /// What the row counts: "App Store (all)" for a store's, "productID=coins_500" or "appVersion=4.12.0"
    /// for a slice (listed under its store's).
    public var scopeText: String { slice.map { "\($0.dimension.rawValue)=\($0.value ?? "(none)")" } ?? "\(store.displayName) (all)" }
}

extension SLOPolicy.TimeToGrantObjective {
    /// "99 % of charges granted within 60 s".
    public var text: String {
        "\(NumberText.percent(objective.target)) of charges granted within \(NumberText.elapsed(millis: withinSeconds * .millisPerSecond))"
    }
}
