import Foundation
import PurchaseSLIClient

// A process that uses the SDK as an app would, for the client's tests to kill and start again:
//
//   purchase-sli-client-probe record ENDPOINT QUEUE COUNT PREFIX   records COUNT purchases (start and success),
//                                                                  prints "recorded" once every finish has
//                                                                  returned, then waits to be killed (it sends
//                                                                  nothing: the interval is a day)
//   purchase-sli-client-probe send ENDPOINT QUEUE                  sends what the queue holds and prints
//                                                                  "delivered N"
//   purchase-sli-client-probe bench ENDPOINT QUEUE COUNT CALLERS   bench/client-sdk.sh: how fast attempts are
//                                                                  queued, by one caller and by CALLERS at once,
//                                                                  against appending and syncing each line by
//                                                                  hand; bytes per event on disk and sent
let arguments = CommandLine.arguments
guard arguments.count >= 4, let endpoint = URL(string: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: purchase-sli-client-probe record|send ENDPOINT QUEUE [COUNT PREFIX]\n".utf8))
    exit(2)
}
var configuration = SLIConfiguration(endpoint: endpoint, queueDirectory: URL(fileURLWithPath: arguments[3]))
configuration.appVersion = "9.9.9"
configuration.sendThreshold = .max
configuration.sendInterval = .seconds(86_400)
configuration.initialRetryDelay = .milliseconds(50)
configuration.log = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
let sli = try PurchaseSLI(configuration)

switch arguments[1] {
case "record" where arguments.count == 6:
    let count = Int(arguments[4]) ?? 0
    for index in 0..<count {
        let attempt = sli.begin(.purchase, productID: "probe_\(arguments[5])")
        await attempt.finish(.success(transactionID: "\(arguments[5])-\(index)"))
    }
    FileHandle.standardOutput.write(Data("recorded \(count)\n".utf8))
    try await Task.sleep(for: .seconds(86_400))
case "send":
    await sli.flush()
    print("delivered", await sli.statistics.delivered)
case "bench" where arguments.count == 6:
    // Only the queue is measured: a failed send is not tried again within the run, and not logged.
    configuration.maximumQueueBytes = 1 << 30
    configuration.initialRetryDelay = .seconds(3600)
    configuration.log = nil
    try await ClientBenchmark(configuration: configuration, count: Int(arguments[4]) ?? 0, callers: Int(arguments[5]) ?? 1).run()
default:
    exit(2)
}
