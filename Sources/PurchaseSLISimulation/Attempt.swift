import PurchaseSLICore

/// One attempt's shared fields: what, by whom, when it started, and how late its events are delivered.
struct Attempt {
    let product: Product
    let offerID: String?
    let action: ActionType
    let client: Client
    let startMillis: Int64
    let deliveryDelay: Int64
    /// The UUID the app passed to the store for a purchase (StoreKit's appAccountToken), on all its events.
    var appAccountToken: String? = nil
}
