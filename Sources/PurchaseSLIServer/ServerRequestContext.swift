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
