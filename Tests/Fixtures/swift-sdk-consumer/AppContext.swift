// The app's own names that the Swift examples of docs/sending-events.md use, for scripts/check_swift_sdk.py,
// which compiles each example as the body of a function beside this file. Compile-only: never run.
import Foundation
import PurchaseSLIClient
import StoreKit

/// The product the user chose.
var product: Product { fatalError("compile-only") }
/// The UUID the app passes to StoreKit as `appAccountToken` for this purchase.
var token: UUID { fatalError("compile-only") }
/// The user's account token, for purchases started on the App Store.
var accountToken: UUID { fatalError("compile-only") }
/// The app's client, made at launch as the first example shows.
var sli: PurchaseSLI { fatalError("compile-only") }

/// The app's grant server.
struct GrantServer: Sendable {
    /// Sends a purchase's transaction to be granted; nil when StoreKit brought none (pending, cancelled).
    func send(_ result: Product.PurchaseResult) async -> GrantAnswer? { fatalError("compile-only") }
    /// Sends a signed transaction to be granted.
    func grant(_ signedTransaction: String) async -> GrantAnswer { fatalError("compile-only") }
}

let grantServer = GrantServer()
