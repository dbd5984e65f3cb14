import Foundation
import Hummingbird
import Logging
import NIOPosix

/// The rendered pages of one directory, for Hummingbird's `FileMiddleware` (which reads them on NIO's
/// thread pool, off the cooperative threads): `/` is its `index.html`, `/oncall.html` its file of that
/// name. Only `.html` files directly in the directory are served (names of lowercase letters, digits,
/// `-` and the `W` of a weekly review), so a database, a keys file or a subdirectory kept beside them is
/// never handed out.
struct PageFiles: FileProvider {
    private let files: LocalFileSystem

    /// Serves the pages of `directory` (logged once to `logger`).
    init(directory: String, logger: Logger) {
        files = LocalFileSystem(rootFolder: directory, threadPool: .singleton, logger: logger)
    }

    /// The middleware that answers the requests no route matches with a page, when there is one.
    func middleware<Context: RequestContext>(context: Context.Type = Context.self) -> FileMiddleware<Context, PageFiles> {
        FileMiddleware(fileProvider: self, cacheControl: .init([(.textHtml, [.noCache])]), searchForIndexHtml: true)
            .withAdditionalMediaType(MediaType(type: .text, subType: "html", parameter: ("charset", "utf-8")), mappedToFileExtension: "html")
    }

    /// The directory itself for `/` (the middleware then looks for its `index.html`), a page's file for
    /// a page's path, nil for anything else.
    func getFileIdentifier(_ path: String) -> String? {
        path == "/" ? files.getFileIdentifier(path) : Self.pageName(path).flatMap(files.getFileIdentifier)
    }

    func getAttributes(id: String) async throws -> LocalFileSystem.FileAttributes? {
        try await files.getAttributes(id: id)
    }

    func loadFile(id: String, context: some RequestContext) async throws -> ResponseBody {
        try await files.loadFile(id: id, context: context)
    }

    func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        try await files.loadFile(id: id, range: range, context: context)
    }

    /// The file a path asks for, or nil when it is not a page of the directory.
    static func pageName(_ path: String) -> String? {
        let name = String(path.dropFirst())
        guard path.hasPrefix("/"), name.hasSuffix(".html"), name.count <= 64,
              name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "." || $0 == "W") }),
              !name.hasPrefix("."), !name.contains("..")
        else { return nil }
        return name
    }
}
