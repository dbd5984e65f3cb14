/// A traffic pattern for `purchase-sli simulate`: the healthy baseline alone, or with one incident.
///
/// Incident times are relative to the start of the run; see ``timingRule`` for runs too short to contain them.
public enum Scenario: String, CaseIterable, Sendable {
    /// The healthy baseline, no incident.
    case steady
    /// Receipt verification answers 503 for 40 minutes.
    case outage
    /// App 4.12.0 sends every purchase's receipt twice, so each purchase brings an extra 409.
    case retryConflicts = "retry-409"
    /// Cancels for coins_500 jump to about 30 % for some hours (payment-info detour).
    case cancelSpike = "cancel-spike"
    /// Renewals pile up at launch, their retries fail again and again or never finish.
    case renewalBatch = "renewal-batch"
    /// Purchases with the win-back offer fail slightly more, for days.
    case slowBurn = "slow-burn"
    /// Phased release of 4.12.0 with a regression in one plan.
    case rollout
    /// Payment-info detours of coins_500 reported as cancels, charged a minute later, never granted.
    case paymentDetour = "paymentdetour"
    /// The app crashes after the store charged and before the grant.
    case appCrash = "appcrash"
    /// The grant server grants a receipt the app's retry re-sends, where it should answer 409.
    case doubleGrant = "double-grant"
    /// Forged receipts of coins_1200 granted with transaction ids no store charged.
    case replayedReceipt = "replayed-receipt"
    /// The grant server's queue backs up: purchases are granted minutes after the charge.
    case slowGrantQueue = "slow-grant-queue"

    /// One line saying what happens and when (relative to the start), for help text and READMEs.
    public var summary: String {
        switch self {
        case .steady:
            "Healthy baseline: diurnal traffic, ~99.3% purchase success, ~6% cancels, a trickle of 409 retries; no incident."
        case .outage:
            "Receipt verification answers 503 for 40 min from 42 h after start (day 2; 1-day run: from 14 h)."
        case .retryConflicts:
            "App 4.12.0 rolls out from 24 h after start (1-day run: 8 h; 15% of traffic a day later, 30% after two, up to 50%) and sends each purchase's receipt twice: one extra 409 retry per purchase on 4.12.0."
        case .cancelSpike:
            "Cancels of coins_500 rise to ~30% (payment-info detour, \"payment cancelled\"; most complete later and arrive as retries) for 6 h from 40 h after start (1-day run: from 13 h 20 min)."
        case .renewalBatch:
            "For 10 h from 30 h after start (1-day run: from 10 h), launches bring bursts of premium_monthly renewal retries that fail or never finish."
        case .slowBurn:
            "From 24 h after start to the end (1-day run: from 8 h), purchases with offer winback-50 fail ~4% more (\"invalid offer signature\")."
        case .paymentDetour:
            "For 3 h from 40 h after start (1-day run: from 13 h 20 min), 25% of coins_500 purchases go to confirm payment details: the app reports cancel (\"payment cancelled\"), the App Store charges 40-90 s later, and nothing grants it."
        case .appCrash:
            "For 2 h from 42 h after start (1-day run: from 14 h), 4% of purchases crash the app after the App Store charged: a start, a charge, and no other event."
        case .doubleGrant:
            "For 4 h from 40 h after start (1-day run: from 13 h 20 min), the grant server lost its idempotency check: 10% of purchases time out on the app, whose retry re-sends the receipt seconds later and is granted again (200, not 409)."
        case .replayedReceipt:
            "For 2 h from 42 h after start (1-day run: from 14 h), a script replays forged coins_1200 receipts: about one grant a minute (a tenth of the rate) naming a transaction no store charged."
        case .slowGrantQueue:
            "For 3 h from 40 h after start (1-day run: from 13 h 20 min), the grant server's queue backs up: 60% of purchases are granted 1-8 min after the App Store charged (the app shows \"processing\" meanwhile), within the 15 min a charge has before it counts as not granted."
        case .rollout:
            "Phased release of 4.12.0 from the start: 1, 2, 5, 10, 20, 50, 100% of traffic a day (runs under 5 days: 5 equal phases); pro-monthly fails ~8% more on 4.12.0."
        }
    }

    /// How incident times adapt to the length of the run, for help text and READMEs.
    public static let timingRule =
        "Incident times are relative to --start. When a run is too short to contain an incident at its nominal time, "
        + "its onset moves to the same fraction of the run as in a 3-day run (durations are kept); "
        + "rollout phases last a day, or a fifth of runs shorter than 5 days."
}
