import ArgumentParser
import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

struct LedgerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger", abstract: "Create, list, share and change ledgers of shared spending.",
        subcommands: [List.self, Create.self, Show.self, Rename.self, Members.self, Owner.self, Invite.self, Join.self, Log.self,
                      Notifications.self],
        defaultSubcommand: List.self)

    struct List: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List your ledgers.")
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let ledgers = try await context.spending.ledgers()
            try emit(LedgerList(items: ledgers), context) { SpendingText.ledgers(ledgers) }
        }
    }

    struct Create: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Create a ledger: you are its first member.",
            discussion: "Without --member, its members are Person 1 (you) and Person 2; rename them with `tally ledger members rename`.")
        @Argument(help: ArgumentHelp("The ledger's name.", valueName: "name"))
        var name: String
        @Option(help: ArgumentHelp("The ISO 4217 currency of its amounts (default: EUR).", valueName: "code"))
        var currency = "EUR"
        @Option(name: .customLong("member"), help: ArgumentHelp("A member's name, you first; repeat for each member.", valueName: "name"))
        var members: [String] = []
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let ledger = try await context.spending.createLedger(name: name, currency: currency, members: members.isEmpty ? nil : members)
            try emit(ledger, context) { SpendingText.ledger(ledger, created: true) }
        }
    }

    struct Show: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a ledger's members, currency and invite code.")
        @OptionGroup var ledger: LedgerOption
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let ledger = try await context.ledger(ledger)
            try emit(ledger, context) { SpendingText.ledger(ledger) }
        }
    }

    struct Rename: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Rename a ledger, or change its currency while it has no expenses.")
        @Argument(help: ArgumentHelp("The new name.", valueName: "name"))
        var name: String?
        @Option(help: ArgumentHelp("A new currency (only before the first expense).", valueName: "code"))
        var currency: String?
        @OptionGroup var ledger: LedgerOption
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let current = try await context.ledger(ledger)
            let changed = try await context.spending.changeLedger(current.id, name: name, currency: currency)
            try emit(changed, context) { SpendingText.ledger(changed) }
        }
    }

    struct Members: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "members", abstract: "List, add, rename or remove a ledger's members.",
            subcommands: [List.self, Add.self, Rename.self, Remove.self], defaultSubcommand: List.self)

        struct List: TallyCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List the members.")
            @OptionGroup var ledger: LedgerOption
            @OptionGroup var options: CommonOptions

            func run(in context: CommandContext) async throws {
                let ledger = try await context.ledger(ledger)
                try emit(ledger.members, context) { SpendingText.members(ledger) }
            }
        }

        struct Add: TallyCommand {
            static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a member (at most 50).")
            @Argument(help: ArgumentHelp("The new member's name.", valueName: "name"))
            var name: String
            @OptionGroup var ledger: LedgerOption
            @OptionGroup var options: CommonOptions

            func run(in context: CommandContext) async throws {
                let changed = try await context.spending.addMember(to: try await context.ledger(ledger).id, name: name)
                try emit(changed, context) { SpendingText.members(changed) }
            }
        }

        struct Rename: TallyCommand {
            static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a member.")
            @Argument(help: ArgumentHelp("The member's name now.", valueName: "name"))
            var name: String
            @Argument(help: ArgumentHelp("The new name.", valueName: "new-name"))
            var newName: String
            @OptionGroup var ledger: LedgerOption
            @OptionGroup var options: CommonOptions

            func run(in context: CommandContext) async throws {
                let current = try await context.ledger(ledger)
                let changed = try await context.spending.renameMember(try current.member(named: name), in: current.id, to: newName)
                try emit(changed, context) { SpendingText.members(changed) }
            }
        }

        struct Remove: TallyCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a member who has no expenses or payments.")
            @Argument(help: ArgumentHelp("The member's name.", valueName: "name"))
            var name: String
            @OptionGroup var ledger: LedgerOption
            @OptionGroup var options: CommonOptions

            func run(in context: CommandContext) async throws {
                let current = try await context.ledger(ledger)
                let changed = try await context.spending.removeMember(try current.member(named: name), from: current.id)
                try emit(changed, context) { SpendingText.members(changed) }
            }
        }
    }

    struct Owner: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "owner", abstract: "Make another member the ledger's owner (only the owner can).",
            discussion: "The owner invites people, removes members and renames those who joined; the new owner must have joined with an account.")
        @Argument(help: ArgumentHelp("The member who will own the ledger.", valueName: "name"))
        var name: String
        @OptionGroup var ledger: LedgerOption
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let current = try await context.ledger(ledger)
            let changed = try await context.spending.transferOwnership(of: current.id, to: try current.member(named: name))
            try emit(changed, context) { SpendingText.ledger(changed) }
        }
    }

    struct Invite: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "invite", abstract: "Open an invite and show its code (a new code replaces the old one), or revoke it.",
            discussion: "Only the owner can. The code is shown this once: Tally keeps only its hash. By default it lasts 7 days and lets one person join.")
        @Flag(help: "Revoke the open invite: its code joins nobody any more.")
        var revoke = false
        @Option(help: ArgumentHelp("How many days the code works (1 to 30, default 7).", valueName: "n"))
        var days: Int?
        @Option(help: ArgumentHelp("How many people may join with it (1 to 50, default 1).", valueName: "n"))
        var uses: Int?
        @OptionGroup var ledger: LedgerOption
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let current = try await context.ledger(ledger)
            let changed = revoke ? try await context.spending.revokeInvite(current.id)
                : try await context.spending.openInvite(current.id, days: days, uses: uses)
            try emit(changed, context) { SpendingText.invite(changed) }
        }
    }

    struct Join: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "join", abstract: "Join a ledger with its invite code.",
            discussion: "Say who you are: the member named with --as, or a new member with --new. Without either you become the one member no one has joined as (Person 2 in a new ledger); with several, Tally asks you to choose.")
        @Argument(help: ArgumentHelp("The invite code or link.", valueName: "code"))
        var code: String
        @Option(name: .customLong("as"), help: ArgumentHelp("The member to become.", valueName: "name"))
        var member: String?
        @Option(name: .customLong("new"), help: ArgumentHelp("Join as a new member with this name.", valueName: "name"))
        var newName: String?
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let joined = try await context.spending.join(code: code, memberName: member, newName: newName)
            try emit(joined, context) { SpendingText.joined(joined) }
        }
    }

    struct Notifications: TallyCommand {
        enum Setting: String, ExpressibleByArgument, CaseIterable {
            case on, off
        }

        static let configuration = CommandConfiguration(
            commandName: "notifications",
            abstract: "Say whether your devices are told of the expenses and payments others add, change or delete; or turn it on or off.")
        @Argument(help: ArgumentHelp("on or off; left out, the setting is shown.", valueName: "on|off"))
        var setting: Setting?
        @OptionGroup var ledger: LedgerOption
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let current = try await context.ledger(ledger)
            let answer = try await context.spending.notifications(in: current.id, set: setting.map { $0 == .on })
            try emit(answer, context) {
                answer.changes
                    ? t("Your devices are told of the changes others make to \(current.name).")
                    : t("Your devices are not told of the changes others make to \(current.name).")
            }
        }
    }

    struct Log: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "log", abstract: "Show the activity log: who changed what, and when.")
        @Option(help: ArgumentHelp("How many lines (default: 30).", valueName: "n"))
        var limit = 30
        @OptionGroup var ledger: LedgerOption
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let current = try await context.ledger(ledger)
            let items = try await context.spending.activity(in: current.id, limit: limit)
            try emit(ActivityList(items: items), context) { SpendingText.activity(items, zone: context.settings.zone) }
        }
    }
}
