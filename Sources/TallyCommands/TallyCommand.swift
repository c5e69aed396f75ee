import ArgumentParser
import Foundation
import TallyCore
import TallyRepositories
import TallyServices

/// A command of this tool: it runs against a context, and its errors become one sentence on
/// stderr and an exit code, in this one place.
protocol TallyCommand: AsyncParsableCommand {
    var options: CommonOptions { get }
    func run(in context: CommandContext) async throws
}

extension TallyCommand {
    func run() async throws {
        try await reportingErrors { try await run(in: try await CommandContext.open(options)) }
    }
}

/// Runs `body`, turning a TallyError (or a server that cannot be reached) into its sentence on
/// stderr, in the terminal's language, and its exit code: the one place where error kinds become
/// exit codes.
package func reportingErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        throw report(error)
    }
}

package func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw report(error)
    }
}

private func report(_ error: any Error) -> any Error {
    let (message, code): (String, Int32)
    switch error {
    case let error as TallyError: (message, code) = (t(error.phrase), exitCode(error.kind))
    case let error as RemoteFailure: (message, code) = (t(error.phrase), 6)
    default: return error
    }
    FileHandle.standardError.write(Data((message + "\n").utf8))
    return ExitCode(code)
}

private func exitCode(_ kind: TallyError.Kind) -> Int32 {
    switch kind {
    case .invalidInput, .unsupportedType, .tooLarge: 1
    case .notFound: 2
    case .conflict: 3
    case .unauthorized, .forbidden: 4
    case .tooManyRequests, .busy, .storageFull, .storageUnavailable: 5
    }
}

/// Prints text, or `value` as one JSON document with --json.
func emit<T: Encodable>(_ value: T, _ context: CommandContext, text: () -> String) throws {
    try emitPlain(value, context.options, text: text)
}

package func emitPlain<T: Encodable>(_ value: T, _ options: CommonOptions, text: () -> String) throws {
    if options.json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    } else {
        print(text())
    }
}

/// Reads a number argument, refusing text that is not one with a sentence that names it.
func number(_ text: String, _ what: Phrase) throws -> Double {
    guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
        throw TallyError.invalid("\(what) must be a number; \"\(text)\" is not.")
    }
    return value
}
