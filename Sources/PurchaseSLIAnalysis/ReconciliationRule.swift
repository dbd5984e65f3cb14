public import PurchaseSLICore

extension SLOPolicy {
    /// Which store charges expect a grant from the app's server, within how long, and when charges
    /// left ungranted open a ticket or page (`reconciliation` in `dashboards/slos.yaml`).
    public struct ReconciliationRule: Sendable, Hashable {
        /// The store notification types whose charge the app must grant. Renewals (`DID_RENEW`,
        /// `SUBSCRIPTION_RENEWED`, `SUBSCRIPTION_RECOVERED`) are left out by default: most servers learn
        /// of them from the store, not from the app.
        public var grantExpectedFor: Set<String> = [
            "ONE_TIME_CHARGE", "SUBSCRIBED", "OFFER_REDEEMED", "ONE_TIME_PRODUCT_PURCHASED", "SUBSCRIPTION_PURCHASED",
        ]
        /// How long after the charge the grant may come before the charge counts as ungranted, in seconds.
        public var graceSeconds: Int64 = 15 * .secondsPerMinute
        /// The store environments reconciled (`Production`, `Sandbox`).
        public var environments: Set<String> = ["Production"]
        /// How far back a firing ChargedNotGranted alert counts the charges still owed, and the grant
        /// alerts their grants, in seconds (a charge stays owed after it, in the ledger and its incident's
        /// record, until an event settles it).
        public var ticketLookbackSeconds: Int64 = .secondsPerDay
        /// The window of charges (by the end of their grace) whose ungranted share may page, in seconds;
        /// ChargedNotGranted fires while a charge of it goes ungranted.
        public var pageWindowSeconds: Int64 = .secondsPerHour
        /// The share of the window's charges (of a product, or of all of a store's) that, when ungranted, pages.
        public var pageShare = 0.05
        /// The fewest ungranted charges in the window that page.
        public var pageMinimum = 3

        /// The window of a refund spike, in seconds (whole hours): refunds per charge over it.
        public var refundWindowSeconds: Int64 = .secondsPerDay
        /// The same window on this many previous days is a refund spike's baseline.
        public var refundBaselineDays = 7
        /// The fewest refunds in the window that can spike.
        public var refundMinimumCount = 5

        /// The stores whose notifications reach us for every charge the app grants (App Store Server
        /// Notifications V2 with ONE_TIME_CHARGE, Play's one-time product and subscription notifications):
        /// only their grants can be without a charge.
        public var chargeNotifyingStores: Set<Store> = [.apple, .google]
        /// How long after a grant the store's notification of its charge may come before the grant counts as
        /// without one, in seconds (and the store must have delivered a charge notification since).
        public var chargeWaitSeconds: Int64 = .secondsPerHour
        /// The time-to-grant objective of the charges a grant is expected for, or nil for none.
        public var timeToGrant: TimeToGrantObjective? = .standard

        /// Creates the default rule.
        public init() {}

        /// How long Play waits for a purchase to be acknowledged before it refunds it: 3 days. A Play charge
        /// stays alerted on that long.
        public static let playAcknowledgeSeconds: Int64 = 3 * .secondsPerDay

        /// How far back a charge can still be alerted on: the ticket lookback, or Play's acknowledgement
        /// time when longer.
        public var alertLookbackSeconds: Int64 { max(ticketLookbackSeconds, Self.playAcknowledgeSeconds) }

        /// Whether a charge of this type and environment must be granted by the app.
        public func expectsGrant(type: String, environment: String) -> Bool {
            grantExpectedFor.contains(type) && environments.contains(environment)
        }

        /// Whether `charge` is owed at `millis`: a grant is expected, its grace time is over, and by then it
        /// was neither granted nor settled otherwise (refunded, made whole, written off).
        public func isOwed(_ charge: ChargeLedger.Charge, atMillis millis: Int64) -> Bool {
            expectsGrant(type: charge.notification.type, environment: charge.notification.environment)
                && charge.eventMillis + graceSeconds * .millisPerSecond <= millis && charge.isOwed(at: millis)
        }
    }
}
