import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// TCP ports for child processes that tests start.
public enum TCPPort {
    /// A port free on 127.0.0.1 now, below the range the kernel hands out for port 0 (32768 and up on
    /// Linux): a service a test stops and starts again on it does not find it taken meanwhile by another
    /// test's listener or outgoing connection, as a port the kernel chose may be.
    public static func free() throws -> Int {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_000, using: &generator)
            if isFree(port) { return port }
        }
        throw TCPPortError(description: "no free TCP port on 127.0.0.1 between 20000 and 32000 after 200 tries")
    }

    /// Whether a socket can be bound to `port` on 127.0.0.1 now.
    private static func isFree(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

/// No free port was found.
public struct TCPPortError: Error, CustomStringConvertible {
    /// What was tried.
    public let description: String
}
