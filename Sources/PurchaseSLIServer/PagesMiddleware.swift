import Foundation
public import Hummingbird

/// Serves the rendered pages of one directory for requests no route answers: `/` is its `index.html`,
/// `/oncall.html` its file of that name. Only `.html` files directly in the directory are served (names
/// of lowercase letters, digits, `-` and the `W` of a weekly review), so a database, a keys file or a
/// subdirectory kept beside them is never handed out.
public struct PagesMiddleware<Context: RequestContext>: RouterMiddleware {
    private let directory: String

    /// Serves the pages of `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where error.status == .notFound {
            guard request.method == .get || request.method == .head, let name = Self.pageName(request.uri.path),
                  let data = FileManager.default.contents(atPath: directory + "/" + name)
            else { throw error as any Error }
            var headers = HTTPFields()
            headers[.contentType] = "text/html; charset=utf-8"
            headers[.cacheControl] = "no-cache"
            return Response(status: .ok, headers: headers, body: request.method == .head ? .init() : .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    /// The file a path asks for, or nil when it is not a page of the directory.
    static func pageName(_ path: String) -> String? {
        let name = path == "/" ? "index.html" : String(path.dropFirst())
        guard path.hasPrefix("/"), name.hasSuffix(".html"), name.count <= 64,
              name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "." || $0 == "W") }),
              !name.hasPrefix("."), !name.contains("..")
        else { return nil }
        return name
    }
}
