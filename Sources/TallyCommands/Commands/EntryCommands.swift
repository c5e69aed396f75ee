import ArgumentParser
import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

struct DrinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drink", abstract: "Log a drink.",
        discussion: "AMOUNT takes a unit (250, 250ml, 8oz); a bare number is in your unit.")

    // Collects unrecognized words too, so that "-100" reaches the amount rules instead of being
    // taken for an option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("How much you drank.", valueName: "amount"))
    var amount: [String]
    @Option(help: ArgumentHelp("The drink kind (default: water).", valueName: "name"))
    var kind: String?
    @Option(help: ArgumentHelp("When: HH:MM today, or an ISO 8601 time (default: now).", valueName: "time"))
    var at: String?
    @Option(help: ArgumentHelp("A note.", valueName: "text"))
    var note: String?
    @Option(help: ArgumentHelp("The entry's id, for scripts that retry: a repeated id logs nothing twice.", valueName: "uuid"))
    var id: String?
    @OptionGroup var options: CommonOptions

    /// One request against a server: the amount goes as typed, the answer says the unit.
    func run() async throws {
        try await reportingErrors {
            let connection = try await Connection.open(options)
            let drink = HydrationService.Drink(
                volume: try connection.volume(single(amount)), kindName: kind,
                at: try await at.asyncMap(connection.instant), note: note, id: try id.map(parseUUID))
            let result = try await connection.backend.logDrink(drink)
            try emitPlain(result, options) { TextRendering.added(result, options.unit?.unit ?? result.unit) }
        }
    }
}

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Take water off a day's total (never below zero).")

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("How much to take off.", valueName: "amount"))
    var amount: [String]
    @Option(help: ArgumentHelp("When: HH:MM today, or an ISO 8601 time (default: now).", valueName: "time"))
    var at: String?
    @Option(help: ArgumentHelp("The entry's id, for scripts that retry.", valueName: "uuid"))
    var id: String?
    @OptionGroup var options: CommonOptions

    func run() async throws {
        try await reportingErrors {
            let connection = try await Connection.open(options)
            let result = try await connection.backend.remove(
                try connection.volume(single(amount)), at: try await at.asyncMap(connection.instant), id: try id.map(parseUUID))
            try emitPlain(result, options) { TextRendering.added(result, options.unit?.unit ?? result.unit) }
        }
    }
}

struct DeleteCommand: TallyCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a drink or a removal.",
        discussion: "ENTRY-ID is the id `tally today` shows (its first characters are enough).")

    @Argument(help: ArgumentHelp("The entry to delete.", valueName: "entry-id"))
    var entryID: String
    @OptionGroup var options: CommonOptions

    func run(in context: CommandContext) async throws {
        let id = try await context.backend.resolveEntryID(entryID)
        let result = try await context.backend.deleteEntry(id: id)
        try emit(result, context) {
            t("Deleted \(TextRendering.describe(result.deleted, context.unit)).") + "\n" + TextRendering.totalLine(result.day, context.unit)
        }
    }
}

struct EditCommand: TallyCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a drink's amount, kind, time or note.")

    @Argument(help: ArgumentHelp("The drink to change.", valueName: "entry-id"))
    var entryID: String
    @Option(help: ArgumentHelp("The new amount.", valueName: "amount"))
    var amount: String?
    @Option(help: ArgumentHelp("The new kind (its current factor applies).", valueName: "name"))
    var kind: String?
    @Option(help: ArgumentHelp("The new time.", valueName: "time"))
    var at: String?
    @Option(help: ArgumentHelp("The new note (empty to clear it).", valueName: "text"))
    var note: String?
    @OptionGroup var options: CommonOptions

    func run(in context: CommandContext) async throws {
        let id = try await context.backend.resolveEntryID(entryID)
        let change = IntakeChange(volumeMl: try amount.map(context.milliliters), kind: kind, at: try at.map(context.instant),
                                  note: note.map { .set($0) } ?? .unchanged)
        let result = try await context.backend.editDrink(id: id, change)
        try emit(result, context) {
            t("Changed to \(TextRendering.describe(result.entry, context.unit)).") + "\n" + TextRendering.totalLine(result.day, context.unit)
        }
    }
}

package func parseUUID(_ text: String) throws -> UUID {
    guard let id = UUID(uuidString: text) else {
        throw TallyError.invalid("\"\(text)\" is not a UUID such as 550e8400-e29b-41d4-a716-446655440000.")
    }
    return id
}

/// The one amount of a command whose amount argument also collects unrecognized words.
func single(_ amount: [String]) throws -> String {
    guard let first = amount.first else {
        throw TallyError.invalid("Say how much, such as 250, 250ml or 8oz.")
    }
    guard amount.count == 1 else {
        throw TallyError.invalid("Give one amount; \(amount.dropFirst().joined(separator: " ")) is not understood.")
    }
    return first
}
