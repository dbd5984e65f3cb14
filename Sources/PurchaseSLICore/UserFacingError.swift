/// An error whose description is a whole sentence for a person, naming what failed and why: a command
/// stops with `error: ` and it, and exit code 1, rather than with its usage.
public protocol UserFacingError: Error, CustomStringConvertible {}
