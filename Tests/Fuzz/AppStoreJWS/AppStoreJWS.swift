import Foundation
import FuzzSupport
import PurchaseSLICore
import PurchaseSLIStores

/// A chain made for this process, trusted by the verifier: the fuzzer cannot know its keys.
private let chain = try! AppStoreSigningChain(validity: Date(timeIntervalSince1970: 1.7e9)...Date(timeIntervalSince1970: 1.9e9))
private let verifier = try! AppStoreNotificationVerifier(rootCertificates: [chain.rootDER], bundleIDs: ["com.example.app"])
private let original = StoreNotification(
    store: .apple, notificationID: "5d6c1e44-0f5b-4a55-9f57-6a7e3f1b2c01", environment: "Production", appID: "com.example.app",
    type: "ONE_TIME_CHARGE", kind: .charge, signedMillis: 1_795_168_962_000, transactionID: "2000000123456789",
    originalTransactionID: "2000000123456789", productID: "coins_100", purchaseMillis: 1_795_168_960_000, price: 9.99, currency: "USD",
    appAccountToken: "8f14e45f-ceea-467f-a4c8-1b2c3d4e5f60")
private let validBody = try! StoreNotificationEncoder.appleBody(original, chain: chain)

/// The App Store path up to and including chain validation, three ways by the first byte:
/// 0. the rest is a payload signed with the trusted chain (dates, sizes and shapes at any extreme): taken
///    only as a notification of the configured bundle whose fields every output can carry;
/// 1. the rest is the request body: never taken (no one else holds the chain's key);
/// 2. the rest edits the valid body (byte XOR at positions): taken only as the very notification signed.
/// Every refusal is a 400, 401 or 403; nothing traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func appStoreJWSFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = Array(FuzzInput(start, count).bytes)
    guard let mode = input.first else { return 0 }
    let rest = Array(input.dropFirst())
    let body: [UInt8]
    switch mode % 3 {
    case 0: body = Array("{\"signedPayload\":\"\(try! chain.sign(rest))\"}".utf8)
    case 1: body = rest
    default:
        var edited = validBody
        for pair in stride(from: 0, to: rest.count - 1, by: 2) {
            let position = (Int(rest[pair]) << 8 | Int(rest[pair + 1])) % edited.count
            edited[position] ^= rest[pair] | 1
        }
        body = edited
    }
    switch verified(body) {
    case .success(let notification):
        if mode % 3 == 1 { fuzzFailure("a body not signed with the trusted chain was taken: \(notification)") }
        if mode % 3 == 2, notification != original { fuzzFailure("an edited body was taken as \(notification)") }
        if notification.appID != "com.example.app" { fuzzFailure("a notification of \(notification.appID) was taken") }
        if let problem = notification.problem { fuzzFailure("a notification with \(problem) was taken") }
    case .failure(let error):
        if ![400, 401, 403].contains(error.httpStatus) { fuzzFailure("refused with \(error.httpStatus): \(error.reason)") }
    }
    return 0
}

/// What the verifier makes of `body`, waited for on this thread (libFuzzer calls the target synchronously).
private func verified(_ body: [UInt8]) -> Result<StoreNotification, StoreNotificationError> {
    final class Outcome: @unchecked Sendable { var result: Result<StoreNotification, StoreNotificationError>? }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do throws(StoreNotificationError) {
            outcome.result = .success(try await verifier.verify(body: body))
        } catch {
            outcome.result = .failure(error)
        }
        done.signal()
    }
    done.wait()
    return outcome.result!
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzAppStoreJWS_main")
public func fuzzAppStoreJWSMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, appStoreJWSFuzzTarget)
}
