import ArgumentParser
import Foundation
import TallyCore
import TallyImport
import TallyRepositories
import TallyServices

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import another app's export.", subcommands: [AppleHealth.self, CSV.self, IHateMoney.self, Splitwise.self])

    struct AppleHealth: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "apple-health", abstract: "Import Apple Health's water and sleep records (export.zip or export.xml).",
            discussion: """
                Water records become drinks of water on the day they were recorded. Sleep records \
                can set the reminders' waking hours (choose that in the settings). Importing the \
                same export again, or a later one, adds nothing twice, and drinks you deleted stay \
                deleted. To have the deleted ones back, run it with --forget-deleted first (without a \
                file), then import the export again.
                """)
        @Argument(help: ArgumentHelp("The export the Health app shared: export.zip, or the export.xml inside it.", valueName: "file"))
        var file: String?
        @Flag(help: "Instead of importing: let the imported drinks you deleted come back with the next import.")
        var forgetDeleted = false
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            if forgetDeleted {
                guard file == nil else {
                    throw TallyError.invalid("--forget-deleted imports nothing: run it without a file, then import the export.")
                }
                let forgotten = try await context.backend.forgetDeletedImports()
                try emit(forgotten, context) {
                    let count = forgotten.forgotten
                    return count == 0 ? t("No deleted imported drinks to forget.")
                        : t(one: "Forgot \(count) deleted imported drink: importing its export again brings it back.",
                            other: "Forgot \(count) deleted imported drinks: importing their export again brings them back.")
                }
                return
            }
            guard let file else {
                throw TallyError.invalid("Name the export to import (export.zip or export.xml), or give --forget-deleted.")
            }
            let report = try await context.backend.importAppleHealth(URL(fileURLWithPath: (file as NSString).expandingTildeInPath))
            try emit(report, context) { Said.lines(report.phrases) }
        }
    }

    struct CSV: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "csv", abstract: "Import drinks and removals from a CSV file.",
            discussion: """
                Reads Tally's own export (tally export csv), or a plain file with a header such as \
                date,time,amount,unit: dates as 2025-03-30, times as 08:15 in your time zone (or an \
                ISO 8601 time with its offset). All or nothing: when a line is wrong, nothing is \
                imported and each wrong line is named. Importing the same file again adds nothing twice; \
                a drink kind you do not have is added. For a file whose header does not say the \
                amounts' unit, give --unit ml or --unit oz.
                """)
        @Argument(help: ArgumentHelp("The CSV file.", valueName: "file"))
        var file: String
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            // --unit: the amounts' unit, for a file whose header does not say it.
            let report = try await context.backend.importCSV(URL(fileURLWithPath: (file as NSString).expandingTildeInPath),
                                                             unit: options.unit?.unit)
            try emit(report, context) { Said.lines(report.phrases) }
        }
    }

    struct IHateMoney: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "ihatemoney", abstract: "Import an IHateMoney project's bills (its JSON or CSV export).",
            discussion: """
                Creates a ledger named after the file unless --ledger names one to add to. Members are \
                matched or created by name; Reimbursements become payments. A bill in another currency \
                than the ledger's keeps it, converted at the --rate given for it. Importing the same file \
                again (JSON or CSV) adds nothing twice.
                """)
        @Argument(help: ArgumentHelp("The export: bills.json or bills.csv.", valueName: "file"))
        var file: String
        @OptionGroup var into: LedgerImportOptions
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            try await into.run(file, from: .ihatemoney, in: context)
        }
    }

    struct Splitwise: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "splitwise", abstract: "Import a Splitwise group (its Export as spreadsheet CSV).",
            discussion: """
                Creates a ledger named after the file unless --ledger names one to add to, with a member \
                for each person's column (matched by name in an existing ledger). Each row becomes an \
                expense paid and split as it was, or a payment; rows that move nothing are left out. The \
                ledger's currency is the one most rows use unless --currency says; a row in another \
                currency keeps it, converted at the --rate given for it. Importing the same file again \
                adds nothing twice.
                """)
        @Argument(help: ArgumentHelp("The CSV file Splitwise's Export as spreadsheet wrote.", valueName: "file"))
        var file: String
        @OptionGroup var into: LedgerImportOptions
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            try await into.run(file, from: .splitwise, in: context)
        }
    }

    /// Where another app's ledger goes, and at what rates: the options both its imports take.
    struct LedgerImportOptions: ParsableArguments {
        @Option(help: ArgumentHelp("Add to this ledger instead of creating one.", valueName: "ledger"))
        var ledger: String?
        @Option(help: ArgumentHelp("The new ledger's name (default: the file's name).", valueName: "name"))
        var name: String?
        @Option(help: ArgumentHelp("The new ledger's currency: for an export without one (IHateMoney's XXX), or to choose.", valueName: "code"))
        var currency: String?
        @Option(help: ArgumentHelp("The rate of a currency other than the ledger's: how many of the ledger's currency one of it is worth (repeat for each currency).",
                                   valueName: "CODE=rate"))
        var rate: [String] = []

        func run(_ file: String, from app: OtherAppExport.App, in context: CommandContext) async throws {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: (file as NSString).expandingTildeInPath))
            } catch {
                throw TallyError.notFound("Cannot read \(file): \(error.localizedDescription)")
            }
            let target = try await ledger.asyncMap { try await context.ledger(named: $0).id }
            let ledgerName = name ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            let report = try await context.spending.importExport(data, from: app, into: target, name: ledgerName, currency: currency,
                                                                 rates: rate)
            try emit(report, context) {
                let (added, total, alreadyThere) = (report.added, report.added + report.alreadyThere, report.alreadyThere)
                var lines = [t("Imported \(added) of \(total) bills.")]
                if alreadyThere > 0 {
                    lines.append(t(one: "\(alreadyThere) was already there from an earlier import.",
                                   other: "\(alreadyThere) were already there from an earlier import."))
                }
                if report.skipped > 0 {
                    lines.append(t(one: "\(report.skipped) row moved nothing and was left out.",
                                   other: "\(report.skipped) rows moved nothing and were left out."))
                }
                if !report.newMembers.isEmpty { lines.append(t("New members: \(report.newMembers.joined(separator: ", ")).")) }
                return lines.joined(separator: "\n")
            }
        }
    }
}

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export your data.", subcommands: [CSV.self, JSON.self, Ledger.self])

    struct CSV: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "csv", abstract: "Export every drink and removal as CSV (for a spreadsheet, or tally import csv).")
        @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
        var output: String?
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            guard let output else {
                try await context.backend.exportCSV { FileHandle.standardOutput.write($0) }
                return
            }
            try await ExportFile.write(to: output) { handle in
                try await context.backend.exportCSV { try handle.write(contentsOf: $0) }
            }
        }
    }

    struct JSON: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "json", abstract: "Back up everything of yours as one JSON file (tally restore reads it).",
            discussion: """
                Settings, profile and goals, drink kinds, every drink and removal, the bottle, reminders, \
                sleep records, and the ledgers you own. docs/person-backup.schema.json describes the file.
                """)
        @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
        var output: String?
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            guard let output else {
                try await context.connection.backup.exportBackup { FileHandle.standardOutput.write($0) }
                return
            }
            try await ExportFile.write(to: output) { handle in
                try await context.connection.backup.exportBackup { try handle.write(contentsOf: $0) }
            }
        }
    }

    struct Ledger: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "ledger", abstract: "Export a ledger as CSV (for a spreadsheet) or JSON (everything, deleted entries too).")
        @Option(help: ArgumentHelp("csv or json (default: csv).", valueName: "format"))
        var format: String = "csv"
        @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
        var output: String?
        @OptionGroup var ledger: LedgerOption
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            guard let exportFormat = LedgerExport.Format(rawValue: format.lowercased()) else {
                throw TallyError.invalid("--format must be csv or json; \"\(format)\" is not.")
            }
            let data = try await context.spending.export(try await context.ledger(ledger).id, format: exportFormat)
            if let output {
                do {
                    try data.write(to: URL(fileURLWithPath: (output as NSString).expandingTildeInPath), options: .atomic)
                } catch {
                    throw TallyError.invalid("Cannot write \(output): \(error.localizedDescription)")
                }
            } else {
                FileHandle.standardOutput.write(data)
            }
        }
    }
}


/// A file an export writes: filled beside its final name, then moved there, so that a failed
/// export never leaves half a file under the name asked for.
enum ExportFile {
    static func write(to path: String, _ fill: (FileHandle) async throws -> Void) async throws {
        let target = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        let partial = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = try? FileHandle(forWritingTo: partial) else {
            throw TallyError.invalid("Cannot write \(path): its folder does not exist or cannot be written to.")
        }
        do {
            try await fill(handle)
            try handle.close()
            guard rename(partial.path, target.path) == 0 else {
                throw TallyError.invalid("Cannot write \(path): \(String(cString: strerror(errno))).")
            }
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }
}

struct RestoreCommand: TallyCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Restore a backup that tally export json wrote, into this account.",
        discussion: """
            Into a new, empty account, the backup gives the same days, goals, kinds, bottle, reminders and \
            ledgers. An account that has data already is refused, unless --merge: then what the backup has \
            and the account does not is added (nothing twice), and the account's settings stay.
            """)
    @Argument(help: ArgumentHelp("The backup file.", valueName: "file"))
    var file: String
    @Flag(help: "Add the backup to an account that has data already.")
    var merge = false
    @OptionGroup var options: CommonOptions

    func run(in context: CommandContext) async throws {
        let report = try await context.connection.backup.restoreBackup(URL(fileURLWithPath: (file as NSString).expandingTildeInPath), merge: merge)
        try emit(report, context) { Said.lines(report.phrases) }
    }
}
