import ArgumentParser
import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

struct SpendCommand: TallyCommand {
    static let configuration = CommandConfiguration(
        commandName: "spend", abstract: "Record an expense in a ledger.",
        discussion: """
            Split equally among all members unless told otherwise: --among "Alex,Sam" for an equal \
            split over some members; --split shares|exact|percent with a --part NAME=VALUE per member \
            (shares: 2 pays twice as much as 1; exact: amounts that add up; percent: adds up to 100). \
            When several paid, give each with what they paid: --payer Alex=30 --payer Sam=20.
            """)

    @Argument(help: ArgumentHelp("How much, in the ledger's currency or --currency's (12.50).", valueName: "amount"))
    var amount: String
    @Argument(help: ArgumentHelp("What it was for.", valueName: "description"))
    var description: [String] = []
    @OptionGroup var currency: CurrencyOptions
    @OptionGroup var payers: PayerOptions
    @OptionGroup var split: SplitOptions
    @Option(help: ArgumentHelp("The day, YYYY-MM-DD (default: today).", valueName: "date"))
    var date: String?
    @Option(help: ArgumentHelp("A category.", valueName: "name"))
    var category: String?
    @OptionGroup var ledger: LedgerOption
    @OptionGroup var options: CommonOptions

    func run(in context: CommandContext) async throws {
        let ledger = try await context.ledger(ledger)
        let (payer, several) = try payers.payers(ledger)
        let request = NewExpense(
            amount: .text(amount), payer: several == nil ? try payer ?? ownMember(ledger) : nil, payers: several,
            date: try date.map(parseDate), description: description.isEmpty ? nil : description.joined(separator: " "),
            category: category, split: try split.body(ledger), currency: currency.code, rate: currency.rate.map { .text($0) })
        let entry = try await context.spending.addExpense(to: ledger.id, request)
        try emit(entry, context) { SpendingText.recorded(entry, ledger) }
    }
}

/// The currency an expense or a payment is typed in, when not the ledger's, and its rate.
struct CurrencyOptions: ParsableArguments {
    @Option(name: .customLong("currency"),
            help: ArgumentHelp("The amount's currency when it is not the ledger's (USD).", valueName: "code"))
    var code: String?
    @Option(help: ArgumentHelp("How many of the ledger's currency one unit of it is worth (0.92); default: the ledger's last rate for it.",
                               valueName: "rate"))
    var rate: String?
}

/// Who paid an expense, as `tally spend` and `tally expenses edit` take it: one member, or
/// several each with what they paid.
struct PayerOptions: ParsableArguments {
    @Option(name: .customLong("payer"),
            help: ArgumentHelp("Who paid (default: you); NAME=AMOUNT for each of several who paid.", valueName: "name"))
    var names: [String] = []

    /// One payer, or several; neither when none was given.
    func payers(_ ledger: LedgerJSON) throws -> (one: MemberID?, several: [PayerBody]?) {
        let withAmounts = names.filter { $0.contains("=") }
        if withAmounts.isEmpty {
            guard names.count <= 1 else {
                throw TallyError.invalid("Several payers each need what they paid, such as --payer Alex=30 --payer Sam=20.")
            }
            return (try names.first.map(ledger.member(named:)), nil)
        }
        guard withAmounts.count == names.count else {
            throw TallyError.invalid("Several payers each need what they paid, such as --payer Alex=30 --payer Sam=20.")
        }
        return (nil, try names.map { name in
            let pieces = name.split(separator: "=", maxSplits: 1).map(String.init)
            guard pieces.count == 2 else { throw TallyError.invalid("\"\(name)\" is not NAME=AMOUNT, such as Alex=30.") }
            return PayerBody(member: try ledger.member(named: pieces[0]), paid: .text(pieces[1]))
        })
    }
}

/// How an expense is split, as `tally spend` and `tally recurring add` take it.
struct SplitOptions: ParsableArguments {
    @Option(help: ArgumentHelp("equal, shares, exact or percent (default: equal).", valueName: "method"))
    var split: SplitMethodArgument?
    @Option(help: ArgumentHelp("Members to split equally among, separated by commas.", valueName: "names"))
    var among: String?
    @Option(name: .customLong("part"), help: ArgumentHelp("A member's share count, amount or percentage.", valueName: "name=value"))
    var parts: [String] = []

    /// The split to send: nil for an equal split among everyone.
    func body(_ ledger: LedgerJSON) throws -> SplitBody? {
        let method = split?.method ?? .equal
        if method == .equal {
            guard parts.isEmpty else { throw TallyError.invalid("--part goes with --split shares, exact or percent; for an equal split use --among.") }
            guard let among else { return nil }
            let names = among.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return .init(method: .equal, parts: try names.map { .init(member: try ledger.member(named: $0), value: nil) })
        }
        guard among == nil else { throw TallyError.invalid("--among is for an equal split; with --split \(method.rawValue) give a --part NAME=VALUE per member.") }
        guard !parts.isEmpty else { throw TallyError.invalid("--split \(method.rawValue) needs a --part NAME=VALUE for each member who shares.") }
        return .init(method: method, parts: try parts.map { part in
            let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pieces.count == 2 else { throw TallyError.invalid("\"\(part)\" is not NAME=VALUE, such as Alex=2.") }
            return .init(member: try ledger.member(named: pieces[0]), value: .text(pieces[1]))
        })
    }
}

struct SplitMethodArgument: ExpressibleByArgument {
    let method: SplitMethod
    init?(argument: String) {
        guard let method = SplitMethod(rawValue: argument.lowercased()) else { return nil }
        self.method = method
    }
    static var allValueStrings: [String] { SplitMethod.allCases.map(\.rawValue) }
}

struct PayCommand: TallyCommand {
    static let configuration = CommandConfiguration(
        commandName: "pay", abstract: "Record a payment from one member to another (settling up).")
    @Argument(help: ArgumentHelp("Who paid.", valueName: "from"))
    var from: String
    @Argument(help: ArgumentHelp("Who received it.", valueName: "to"))
    var to: String
    @Argument(help: ArgumentHelp("How much.", valueName: "amount"))
    var amount: String
    @Option(help: ArgumentHelp("A note.", valueName: "text"))
    var note: String?
    @Option(help: ArgumentHelp("The day, YYYY-MM-DD (default: today).", valueName: "date"))
    var date: String?
    @OptionGroup var currency: CurrencyOptions
    @OptionGroup var ledger: LedgerOption
    @OptionGroup var options: CommonOptions

    func run(in context: CommandContext) async throws {
        let ledger = try await context.ledger(ledger)
        let entry = try await context.spending.recordPayment(in: ledger.id, NewPayment(
            from: try ledger.member(named: from), to: try ledger.member(named: to),
            amount: .text(amount), date: try date.map(parseDate), note: note, currency: currency.code, rate: currency.rate.map { .text($0) }))
        try emit(entry, context) { SpendingText.recorded(entry, ledger) }
    }
}

struct BalanceCommand: TallyCommand {
    static let configuration = CommandConfiguration(
        commandName: "balance", abstract: "Show what each member paid, their share, and who owes whom.")
    @OptionGroup var ledger: LedgerOption
    @OptionGroup var options: CommonOptions

    func run(in context: CommandContext) async throws {
        let ledger = try await context.ledger(ledger)
        let summary = try await context.spending.summary(of: ledger.id)
        try emit(summary, context) { SpendingText.balance(summary, ledger) }
    }
}

struct SettleCommand: TallyCommand {
    static let configuration = CommandConfiguration(
        commandName: "settle", abstract: "Show the fewest payments that settle everyone up, or record them.")
    @Flag(help: "Record the plan's payments as made.")
    var record = false
    @OptionGroup var ledger: LedgerOption
    @OptionGroup var options: CommonOptions

    func run(in context: CommandContext) async throws {
        let ledger = try await context.ledger(ledger)
        let summary = try await context.spending.summary(of: ledger.id)
        guard record else {
            try emit(summary.plan, context) { SpendingText.plan(summary) }
            return
        }
        var recorded: [EntryJSON] = []
        for transfer in summary.plan {
            recorded.append(try await context.spending.recordPayment(in: ledger.id, NewPayment(
                from: transfer.from, to: transfer.to, amount: .text(transfer.amount), date: nil, note: "Settling up")))
        }
        try emit(recorded, context) {
            recorded.isEmpty ? t("Everyone is settled up: nothing to record.")
                : recorded.map { SpendingText.recorded($0, ledger) }.joined(separator: "\n")
        }
    }
}

struct ExpensesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expenses", abstract: "List, change, delete or restore a ledger's expenses and payments, and keep their receipts.",
        subcommands: [List.self, Edit.self, Delete.self, Restore.self, Receipt.self], defaultSubcommand: List.self)

    struct List: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List expenses and payments, newest first.")
        @Option(help: ArgumentHelp("How many (default: 30).", valueName: "n"))
        var limit = 30
        @Flag(help: "Include deleted ones, which can be restored.")
        var deleted = false
        @Option(help: ArgumentHelp("Only those whose description has these words, whatever the case and accents.", valueName: "words"))
        var search: String?
        @Option(help: ArgumentHelp("Only those this member paid, sent, received or shares.", valueName: "name"))
        var member: String?
        @Option(help: ArgumentHelp("Only those of this category, as it was written.", valueName: "name"))
        var category: String?
        @Option(help: ArgumentHelp("Only those on or after this day, YYYY-MM-DD.", valueName: "date"))
        var from: String?
        @Option(help: ArgumentHelp("Only those on or before this day, YYYY-MM-DD.", valueName: "date"))
        var through: String?
        @OptionGroup var ledger: LedgerOption
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            guard limit > 0 else { throw TallyError.invalid("--limit must be at least 1.") }
            let ledger = try await context.ledger(ledger)
            func day(_ text: String?, _ option: String) throws -> LocalDate? {
                try text.map { try LocalDate.parse($0, field: "--\(option)") }
            }
            let search = try EntryFilter(words: search, member: try member.map(ledger.member(named:)), category: category,
                                         from: try day(from, "from"), through: try day(through, "through"))
            let entries = try await context.spending.entries(in: ledger.id, includeDeleted: deleted, matching: search, limit: limit)
            try emit(entries, context) { SpendingText.entries(entries, ledger) }
        }
    }

    struct Edit: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Change an expense or payment; the ledger's log records what changed.",
            discussion: "Options left out keep their value; an empty --description or --category clears it.")
        @Argument(help: ArgumentHelp("Its id, or the id's first characters.", valueName: "id"))
        var id: String
        @Option(help: ArgumentHelp("The new amount.", valueName: "amount"))
        var amount: String?
        @OptionGroup var currency: CurrencyOptions
        @OptionGroup var payers: PayerOptions
        @Option(help: ArgumentHelp("What it was for.", valueName: "text"))
        var description: String?
        @Option(help: ArgumentHelp("The day, YYYY-MM-DD.", valueName: "date"))
        var date: String?
        @Option(help: ArgumentHelp("A category.", valueName: "name"))
        var category: String?
        @Option(help: ArgumentHelp("Split equally among these members instead, separated by commas.", valueName: "names"))
        var among: String?
        @OptionGroup var ledger: LedgerOption
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let ledger = try await context.ledger(ledger)
            let split = try among.map { names in
                SplitBody(method: .equal, parts: try names.split(separator: ",")
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                    .map { .init(member: try ledger.member(named: $0), value: nil) })
            }
            let (payer, several) = try payers.payers(ledger)
            let change = EntryChangeBody(amount: amount.map { .text($0) }, payer: payer, payers: several,
                                         date: try date.map(parseDate), description: description.map { .set($0) } ?? .unchanged,
                                         category: category.map { .set($0) } ?? .unchanged, split: split,
                                         currency: currency.code, rate: currency.rate.map { .text($0) })
            let matching = try await context.spending.entryIDs(startingWith: id, in: ledger.id, .all)
            let entry = try await context.spending.editEntry(try ledger.entryID(id, matching: matching), in: ledger.id, change)
            try emit(entry, context) { t("Changed: \(SpendingText.line(entry, ledger)).") }
        }
    }

    struct Delete: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete an expense or payment (`tally expenses restore` brings it back).")
        @Argument(help: ArgumentHelp("Its id, or the id's first characters.", valueName: "id"))
        var id: String
        @OptionGroup var ledger: LedgerOption
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let ledger = try await context.ledger(ledger)
            let matching = try await context.spending.entryIDs(startingWith: id, in: ledger.id, .current)
            let entry = try await context.spending.deleteEntry(try ledger.entryID(id, matching: matching), in: ledger.id)
            try emit(entry, context) {
                t("Deleted \(SpendingText.line(entry, ledger)).") + "\n" + t("Undo with: tally expenses restore \(entry.id.uuidString.prefix(8).lowercased())")
            }
        }
    }

    struct Restore: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "restore", abstract: "Bring back a deleted expense or payment.")
        @Argument(help: ArgumentHelp("Its id, or the id's first characters.", valueName: "id"))
        var id: String
        @OptionGroup var ledger: LedgerOption
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let ledger = try await context.ledger(ledger)
            let matching = try await context.spending.entryIDs(startingWith: id, in: ledger.id, .deleted)
            let entry = try await context.spending.restoreEntry(try ledger.entryID(id, matching: matching), in: ledger.id)
            try emit(entry, context) { t("Restored \(SpendingText.line(entry, ledger)).") }
        }
    }
}

/// The member the user acts as in `ledger`.
func ownMember(_ ledger: LedgerJSON) throws -> MemberID {
    guard let you = ledger.you else { throw TallyError.invalid("Name the payer with --payer.") }
    return you.id
}
