public import PurchaseSLICore

/// What a DoubleGrant or GrantedWithoutCharge alert found: a product's grants that no charge paid for
/// (granted again, or never charged), how much they are worth, and their share of the latest window.
public struct GrantEvidence: Sendable, Hashable {
    /// Which of the two it is.
    public enum Problem: Sendable, Hashable {
        /// Transactions granted again (``GrantAudit/Repeat``).
        case doubleGrant
        /// Grants no charge names after the wait, in seconds.
        case withoutCharge(waitSeconds: Int64)
    }

    /// One grant that no charge paid for, and for a double grant the transaction's first grant.
    public struct Example: Sendable, Hashable {
        /// The grant.
        public var grant: GrantAudit.Grant
        /// The first grant of its transaction (double grants only).
        public var first: GrantRecord?

        /// An example of `grant`, which repeats `first` when given.
        public init(grant: GrantAudit.Grant, first: GrantRecord?) {
            self.grant = grant
            self.first = first
        }

        /// What it gave away: the grant's price (``GrantAudit/Grant/worth``), else the first grant's (a
        /// retry's event carries no price); nil without one.
        public var worth: (amount: Double, currency: String)? {
            if let worth = grant.worth { return worth }
            if let price = first?.price, let currency = first?.currency { return (price, currency) }
            return nil
        }
    }

    /// An app version and how many of the grants it made.
    public struct VersionCount: Sendable, Hashable {
        /// The version ("(no version)" when the events named none).
        public var appVersion: String
        /// Its grants.
        public var grants: Int
    }

    /// Which problem.
    public var problem: Problem
    /// The store whose product it is.
    public var store: Store
    /// How far back grants are counted, in seconds.
    public var lookbackSeconds: Int64
    /// The product's grants of the problem within the lookback.
    public var count: Int
    /// Their worth by currency (the store's price, else the event's), largest first.
    public var amounts: [ChargeEvidence.Amount]
    /// Up to 10 of them, oldest first.
    public var examples: [Example]
    /// Of the double grants, those that granted another product than the first grant.
    public var otherProducts: Int
    /// The app versions that made them, most first (at most 3).
    public var appVersions: [VersionCount]
    /// The page window, in seconds.
    public var pageWindowSeconds: Int64
    /// The product's grants of the page window, and how many of them have the problem.
    public var windowGrants: Int
    public var windowProblems: Int
    /// The store's grants of the page window (every product), and how many of them have the problem.
    public var storeWindowGrants: Int
    public var storeWindowProblems: Int

    /// Creates evidence.
    public init(
        problem: Problem, store: Store, lookbackSeconds: Int64, count: Int, amounts: [ChargeEvidence.Amount], examples: [Example],
        otherProducts: Int, appVersions: [VersionCount], pageWindowSeconds: Int64, windowGrants: Int, windowProblems: Int,
        storeWindowGrants: Int, storeWindowProblems: Int
    ) {
        self.problem = problem
        self.store = store
        self.lookbackSeconds = lookbackSeconds
        self.count = count
        self.amounts = amounts
        self.examples = examples
        self.otherProducts = otherProducts
        self.appVersions = appVersions
        self.pageWindowSeconds = pageWindowSeconds
        self.windowGrants = windowGrants
        self.windowProblems = windowProblems
        self.storeWindowGrants = storeWindowGrants
        self.storeWindowProblems = storeWindowProblems
    }
}

extension GrantEvidence: AlertEvidence {
    public var windowSeconds: Int64 { lookbackSeconds }
    /// The grants counted.
    public var pileCount: Int? { count }
    /// The grants no charge paid for, in full.
    public var costMeasure: AlertCostMeasure? {
        .unpaidGrants(ChargeTally(count: count, worth: Dictionary(amounts.map { ($0.currency, $0.amount) }, uniquingKeysWith: +)))
    }
    /// The minute of the oldest grant counted.
    public func firstBadSeconds(of alert: AlertFinding) -> Int64? {
        examples.first.map { $0.grant.record.millis.floorDividedBy(.millisPerMinute).quotient * .secondsPerMinute }
    }

    /// "coins_100: 12 App Store transactions granted again (59.88 USD given away) in the last 1 d: the
    /// grant server granted receipts it had granted before, where it should answer 409 already granted".
    public func summary(of alert: AlertFinding) -> AlertText {
        let product = alert.labels.slice?.value ?? ""
        let money = amounts.isEmpty ? "" : AlertText.amounts(Dictionary(amounts.map { ($0.currency, $0.amount) }, uniquingKeysWith: +))
        let worth: AlertText = money.map { " (" + $0 + " given away)" } ?? ""
        switch problem {
        case .doubleGrant:
            return
                "\(product): \(count: Int64(count)) \(words: store.displayName) \(words: count == 1 ? "transaction" : "transactions") granted again"
                + worth + " in the last \(duration: lookbackSeconds): the grant server granted receipts it had granted before, "
                + "where it should answer 409 already granted"
        case .withoutCharge(let wait):
            return "\(product): \(count: Int64(count)) \(words: count == 1 ? "grant" : "grants")" + worth
                + " with no \(words: store.displayName) charge after \(duration: wait): revenue given away, or a replayed or forged receipt"
        }
    }

    /// The window's share, the app versions, then each of the oldest grants.
    public func details(of alert: AlertFinding) -> [AlertText] {
        var window: AlertText =
            switch problem {
            case .doubleGrant:
                "grants of the last \(duration: pageWindowSeconds): \(count: Int64(windowProblems)) of \(count: Int64(windowGrants)) granted again"
            case .withoutCharge(let wait):
                "grants whose \(duration: wait) wait ended in the last \(duration: pageWindowSeconds): \(count: Int64(windowProblems)) of "
                    + "\(count: Int64(windowGrants)) without a charge"
            }
        if windowGrants > 0 { window = window + " (\(percent: Double(windowProblems) / Double(windowGrants)))" }
        var lines = [
            window + "; all \(words: store.displayName) grants: \(count: Int64(storeWindowProblems)) of \(count: Int64(storeWindowGrants))"
        ]
        if !appVersions.isEmpty {
            lines.append(
                "by app version: "
                    + AlertText.joined(appVersions.map { "\($0.appVersion) (\(count: Int64($0.grants)))" }, separator: ", "))
        }
        if otherProducts > 0 {
            lines.append(
                "\(count: Int64(otherProducts)) of them granted another product than the first grant: the server trusts the product "
                    + "the app names, not the one in the receipt")
        }
        lines.append("\(words: examples.count < count ? "the oldest \(examples.count)" : "each"):")
        return lines + examples.map(line)
    }

    /// "2000000123 granted 2026-11-19T16:01:09Z (purchase, 2.4.0) and again 16:01:12Z (retry, 2.4.0), 4.99 USD" or
    /// "2000000999 granted 2026-11-19T16:01:09Z (purchase, 2.4.0, event e-1), 4.99 USD: no App Store charge names it".
    private func line(_ example: Example) -> AlertText {
        let record = example.grant.record
        func granted(_ grant: GrantRecord, product: Bool) -> AlertText {
            var parts = [grant.actionType.rawValue, grant.appVersion.map { "app \($0)" } ?? "no app version", "event \(grant.eventID)"]
            if product { parts.insert(grant.productID, at: 0) }
            return "\(time: grant.millis / .millisPerSecond) (\(words: parts.joined(separator: ", ")))"
        }
        var line: AlertText = "  \(record.transactionID) granted "
        if let first = example.first {
            let otherProduct = first.productID != record.productID
            line = line + granted(first, product: otherProduct) + " and again " + granted(record, product: otherProduct)
        } else {
            line = line + granted(record, product: false)
        }
        if let worth = example.worth { line = line + ", \(money: worth.amount, currency: worth.currency)" }
        if example.first == nil { line = line + ": no \(words: store.displayName) charge names it" }
        return line
    }

    /// The command that lists the grants the alert counts (the lookback before its time, judged then: a
    /// resolved alert's are those its highest finding counted, not the empty day after its last), and where
    /// the store tells whether a transaction exists.
    public func lookNext(of alert: AlertFinding, from: Int64, to: Int64) -> LookNextCommand {
        LookNextCommand(
            "grants",
            [
                "--from", RFC3339.format(seconds: alert.time - lookbackSeconds), "--to", RFC3339.format(seconds: alert.time), "--at",
                RFC3339.format(seconds: alert.time),
                "--store", store.rawValue, "--product=\(alert.labels.slice?.value ?? "")", problem == .doubleGrant ? "--double" : "--uncharged",
            ],
            note: store == .apple
                ? "each id: App Store Server API GET /inApps/v1/transactions/{transactionId} (not found: a forged receipt)"
                : "each token: Play Developer API purchases.products.get (not found: a forged purchase)")
    }
}
