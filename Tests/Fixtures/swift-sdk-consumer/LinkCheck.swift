// The consumer's program (scripts/check_swift_sdk.py): links the SDK as an app does and queues one event.
import Foundation
import PurchaseSLIClient

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purchase-sli-link-check-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
var configuration = SLIConfiguration(endpoint: URL(string: "http://127.0.0.1:9")!, queueDirectory: directory)
configuration.sendInterval = .seconds(3600)
let sli = try PurchaseSLI(configuration)
await sli.record(SLIEvent(productID: "coins_100", actionType: .purchase, resultType: .success))
let waiting = await sli.waitingEvents
guard waiting == 1 else { fatalError("expected 1 event queued, found \(waiting)") }
print("the linked SDK queued \(waiting) event")
