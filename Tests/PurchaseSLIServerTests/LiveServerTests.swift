import Foundation
import Hummingbird
import HummingbirdTesting
import PurchaseSLIServer
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Sends `request` on a new TCP connection to 127.0.0.1:`port` and returns the response the server
/// answers (headers and as much of the body as its Content-Length says), or what arrived before the
/// connection closed or `seconds` passed without a byte. Blocks: call it on a thread of its own.
private func rawExchange(port: Int, request: String, seconds: Int) throws -> String {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw POSIXError(.EIO) }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    _ = request.utf8CString.withUnsafeBufferPointer { send(socket, $0.baseAddress, $0.count - 1, 0) }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !isComplete(String(decoding: answer, as: UTF8.self)) {
        let received = recv(socket, &buffer, buffer.count, 0)
        guard received > 0 else { break }
        answer += buffer[..<received]
    }
    return String(decoding: answer, as: UTF8.self)
}

/// Whether `response` holds its headers and the whole body they announce.
private func isComplete(_ response: String) -> Bool {
    guard let end = response.range(of: "\r\n\r\n") else { return false }
    let length =
        response[..<end.lowerBound].split(separator: "\r\n")
        .first { $0.lowercased().hasPrefix("content-length:") }
        .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
    return response[end.upperBound...].utf8.count >= length
}

@Suite struct LiveServerTests {
    let directory: TemporaryDirectory
    let store: SQLiteBucketStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
    }

    @Test func answersOverARealSocketAndRefusesABodyThatNeverArrives() async throws {
        let app = makeApp(store: store) {
            $0.bodyTimeoutSeconds = 1
            $0.idleTimeoutSeconds = 120
        }
        // Raw exchanges rather than the test client, whose 20-second read timeout a machine busy with the
        // rest of the suite can exceed.
        try await testLive(app) { client in
            let port = try #require(client.port)
            /// POSTs `body` to /v1/events announcing `length` bytes, on a thread of its own.
            func post(_ body: String, announcing length: Int) async throws -> String {
                try await onDedicatedThread {
                    try rawExchange(
                        port: port,
                        request: "POST /v1/events HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-ndjson\r\n"
                            + "Content-Length: \(length)\r\n\r\n\(body)",
                        seconds: 300)
                }
            }
            let line = eventLine("a")
            let accepted = try await post(line, announcing: line.utf8.count)
            #expect(accepted.hasPrefix("HTTP/1.1 202"), "\(accepted)")
            let answer = try await post("{\"eventID\":", announcing: 1000)
            // The body timeout answered (its own message), not the idle timeout or a closed connection.
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
            #expect(answer.contains("the request body did not arrive within 1 s"), "\(answer)")
        }
        await #expect(try countedEvents(store) == 1)
    }
}
