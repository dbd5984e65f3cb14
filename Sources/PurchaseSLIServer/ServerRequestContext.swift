import Hummingbird
import NIOCore

/// The context of each request: Hummingbird's own, and the client's address, by which reads are rate
/// limited when no read keys are configured.
struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's address, when the channel knows it.
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// The client's IP address as text, or `unknown` when the context does not know it.
func clientAddress(of context: some RequestContext) -> String {
    guard let context = context as? any RemoteAddressRequestContext, let address = context.remoteAddress else { return "unknown" }
    return address.ipAddress ?? "unknown"
}
