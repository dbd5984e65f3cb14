import Foundation
import PurchaseSLIClient

// bench/client-sdk.sh's program: how fast the SDK queues attempts, by one caller and by CALLERS at once,
// against appending and syncing each line by hand; bytes per event on disk and sent.
//
//   purchase-sli-client-bench QUEUE COUNT CALLERS
//
// Only the queue is measured: the endpoint is closed, a failed send is not tried again within the run,
// and nothing is logged.
let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[2]), let callers = Int(arguments[3]), count > 0, callers > 0 else {
    FileHandle.standardError.write(Data("usage: purchase-sli-client-bench QUEUE COUNT CALLERS\n".utf8))
    exit(2)
}
var configuration = SLIConfiguration(endpoint: URL(string: "http://127.0.0.1:9")!, queueDirectory: URL(fileURLWithPath: arguments[1]))
configuration.appVersion = "9.9.9"
configuration.sendThreshold = .max
configuration.sendInterval = .seconds(86_400)
configuration.maximumQueueBytes = 1 << 30
configuration.initialRetryDelay = .seconds(3600)
configuration.log = nil
try await ClientBenchmark(configuration: configuration, count: count, callers: callers).run()
