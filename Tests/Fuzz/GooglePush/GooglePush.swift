import FuzzSupport
import PurchaseSLICore
import PurchaseSLIStores

private let decoder = GooglePlayNotificationDecoder(packageNames: ["com.example.app"])

/// A Pub/Sub push body of any content: a notification or a 400/403 naming the field, never a trap; a
/// notification taken is one of the configured package, with fields every output can carry, and it
/// comes back the same when encoded as Play sends it and decoded again.
@_cdecl("LLVMFuzzerTestOneInput")
public func googlePushFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let body = Array(FuzzInput(start, count).bytes)
    do {
        let notification = try decoder.decode(body: body)
        if notification.appID != "com.example.app" { fuzzFailure("a notification of \(notification.appID) was taken") }
        if let problem = notification.problem { fuzzFailure("a notification with \(problem) was taken") }
        // Play's own shapes come back the same (the encoder writes an absent token or sku as "").
        let playShape =
            ["VOIDED_PURCHASE", "ONE_TIME_PRODUCT_PURCHASED", "ONE_TIME_PRODUCT_CANCELED"].contains(notification.type)
            || GooglePlayNotificationDecoder.subscriptionCode(of: notification.type) != nil
        let complete =
            notification.transactionID != nil
            && (notification.type == "VOIDED_PURCHASE" ? notification.originalTransactionID != nil : notification.productID != nil)
        if playShape, complete, let again = StoreNotificationEncoder.googleBody(notification), let decoded = try? decoder.decode(body: again),
            decoded != notification
        {
            fuzzFailure("\(notification) encoded and decoded is \(decoded)")
        }
    } catch {
        if ![400, 403].contains(error.httpStatus) { fuzzFailure("refused with \(error.httpStatus): \(error.reason)") }
    }
    return 0
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzGooglePush_main")
public func fuzzGooglePushMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, googlePushFuzzTarget)
}
