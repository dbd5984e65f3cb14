import Foundation
import NIOCore

/// Why the service could not listen, in words a person acts on.
public enum ListenFailure {
    /// What to say when `error`, thrown while the service started, means its address is taken; nil
    /// for any other error.
    public static func message(for error: any Error, host: String, port: Int) -> String? {
        guard let error = error as? IOError, error.errnoCode == EADDRINUSE else { return nil }
        return "\(host):\(port) is already in use (another purchase-sli serve, or another service): stop it, or choose "
            + "another port with --port or PURCHASE_SLI_PORT"
    }
}
