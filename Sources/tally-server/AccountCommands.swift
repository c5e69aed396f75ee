import ArgumentParser
import Foundation
import TallyCommands
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServer
import TallyServices

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage the accounts of a server's database.",
        subcommands: [Create.self, List.self, Password.self, Disable.self, Enable.self, Unlock.self], defaultSubcommand: List.self)

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Create an account (the first one is the admin); the password is read from stdin.")
        @Argument(help: ArgumentHelp("The user name.", valueName: "name")) var name: String
        @Option(help: ArgumentHelp("The time zone of their days (default: this machine's).", valueName: "zone"))
        var timeZone: String?
        @OptionGroup var options: CommonOptions

        func run() async throws {
            try await reportingErrors {
                let accounts = try AccountService(store: await openStore(options), clock: SystemClock())
                let account = try await accounts.createAccount(name: name, password: try readPassword(), timeZone: timeZone)
                try emitPlain(AccountView(account), options) {
                    account.isAdmin ? t("Created \(account.user.name), the admin of this server.") : t("Created \(account.user.name).")
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the accounts.")
        @OptionGroup var options: CommonOptions

        func run() async throws {
            try await reportingErrors {
                let accounts = try await openStore(options).accounts()
                try emitPlain(accounts.map(AccountView.init), options) {
                    accounts.isEmpty ? t("No accounts yet: create one with `tally user create NAME`.")
                        : accounts.map { $0.user.name + ($0.isAdmin ? " " + t("(admin)") : "") + ($0.disabledAt == nil ? "" : " " + t("(disabled)")) }
                            .joined(separator: "\n")
                }
            }
        }
    }

    struct Password: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "password", abstract: "Set a user's password, read from stdin.")
        @Argument(help: ArgumentHelp("The user name.", valueName: "name")) var name: String
        @OptionGroup var options: CommonOptions

        func run() async throws {
            try await reportingErrors {
                let store = try await openStore(options)
                guard let user = try await store.user(named: name) else {
                    throw TallyError.notFound("There is no user named \(name).")
                }
                try await AccountService(store: store, clock: SystemClock()).setPassword(of: user, to: try readPassword())
                try emitPlain(["name": user.name], options) { t("Set the password of \(user.name).") }
            }
        }
    }
}

extension UserCommand {
    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "disable", abstract: "Disable an account: its sessions end and its tokens stop working at once; its data stays.")
        @Argument(help: ArgumentHelp("The user name.", valueName: "name")) var name: String
        @OptionGroup var options: CommonOptions

        func run() async throws { try await setDisabled(name, true, options) }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "enable", abstract: "Enable a disabled account again.")
        @Argument(help: ArgumentHelp("The user name.", valueName: "name")) var name: String
        @OptionGroup var options: CommonOptions

        func run() async throws { try await setDisabled(name, false, options) }
    }

    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlock", abstract: "Lift the sign-in throttle on an account: its failed attempts, from every address, are forgotten.")
        @Argument(help: ArgumentHelp("The user name.", valueName: "name")) var name: String
        @OptionGroup var options: CommonOptions

        func run() async throws {
            try await reportingErrors {
                try await AccountService(store: try await openStore(options), clock: SystemClock()).clearSignInLock(named: name)
                try emitPlain(["unlocked": name], options) { t("\(name) can sign in again at once.") }
            }
        }
    }

    private static func setDisabled(_ name: String, _ disabled: Bool, _ options: CommonOptions) async throws {
        try await reportingErrors {
            let account = try await AccountService(store: try await openStore(options), clock: SystemClock()).setDisabled(name, disabled)
            try emitPlain(AccountView(account), options) { disabled ? t("Disabled \(account.user.name).") : t("Enabled \(account.user.name).") }
        }
    }
}

/// The server's own settings, on its database: who may sign up, and invites for those who may.
struct ServerAdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server", abstract: "Who may sign up on the server whose database this is.",
        subcommands: [SignUp.self, Invite.self])

    struct SignUp: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "signup",
            abstract: "Show or set the sign-up mode: open (anyone), invite (with a server invite) or closed.",
            discussion: "The first account can always sign up, and becomes the admin; after it the mode is invite unless set.")
        @Argument(help: ArgumentHelp("open, invite or closed; nothing to show the mode.", valueName: "mode")) var mode: String?
        @OptionGroup var options: CommonOptions

        func run() async throws {
            try await reportingErrors {
                let store = try await openStore(options)
                if let mode {
                    guard let chosen = SignUpMode(rawValue: mode.lowercased()) else {
                        throw TallyError.invalid("The sign-up mode is open, invite or closed; \"\(mode)\" is not.")
                    }
                    try await store.setSignUpMode(chosen)
                }
                let current = try await store.signUpMode()
                try emitPlain(["signUp": current.rawValue], options) {
                    switch current {
                    case .open: t("Sign-up is open: anyone who reaches the server can create an account.")
                    case .invite: t("Sign-up is by invite: create one with `tally server invite`.")
                    case .closed: t("Sign-up is closed: create accounts with `tally user create NAME`.")
                    }
                }
            }
        }
    }

    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "invite", abstract: "Create a server invite for sign-up; its code is shown once.")
        @Option(help: ArgumentHelp("How many days it works (1–90).", valueName: "days")) var days = 7
        @Option(help: ArgumentHelp("How many accounts it can create (1–100).", valueName: "uses")) var uses = 1
        @OptionGroup var options: CommonOptions

        func run() async throws {
            try await reportingErrors {
                let (info, code) = try await AccountService(store: try await openStore(options), clock: SystemClock())
                    .createSignUpInvite(days: days, uses: uses)
                try emitPlain(["code": code, "expiresAt": info.expiresAt.formatted(.iso8601), "uses": String(info.usesLeft)], options) {
                    let until = Said.moment(info.expiresAt)
                    return code + "\n" + (uses == 1 ? t("Open /signup?invite=\(code) on the server, or type the code there. It works once, until \(until).")
                        : t(one: "Open /signup?invite=\(code) on the server, or type the code there. It works \(uses) time, until \(until).",
                            other: "Open /signup?invite=\(code) on the server, or type the code there. It works \(uses) times, until \(until)."))
                }
            }
        }
    }
}

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Manage personal API tokens, for `tally --server` and scripts.",
        subcommands: [Create.self, List.self, Revoke.self], defaultSubcommand: List.self)

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a token; it is shown once.")
        @Option(help: ArgumentHelp("What it is for (default: cli).", valueName: "label")) var name = "cli"
        @Option(help: ArgumentHelp("When it stops working: a number of days, such as 90d (default: never).", valueName: "days"))
        var expires: String?
        @Option(help: ArgumentHelp("What it may do: read, write (everything, the default) or drinks (log drinks and read today, for a phone's shortcut).",
                                   valueName: "scope"))
        var scope = "write"
        @OptionGroup var options: CommonOptions

        func run() async throws {
            try await reportingErrors {
                guard let scope = TokenScope(rawValue: scope.lowercased()) else {
                    throw TallyError.invalid("--scope is read, write or drinks, not \(UserText.quoted(scope)).")
                }
                let store = try await openStore(options)
                let owner = try await account(options, store)
                let lifetime = try expires.map(TokenCommand.days)
                let (info, secret) = try await AccountService(store: store, clock: SystemClock())
                    .createAPIToken(for: owner, name: name, scope: scope, lifetime: lifetime)
                var shown = ["id": info.id.uuidString, "name": info.name, "scope": info.scope.rawValue, "secret": secret]
                shown["expiresAt"] = info.expiresAt?.formatted(.iso8601)
                try emitPlain(shown, options) {
                    let said = info.expiresAt.map { t("Keep it: it is shown only this once. (id \(info.id), until \(Said.moment($0)))") }
                        ?? t("Keep it: it is shown only this once. (id \(info.id))")
                    return secret + "\n" + said
                }
            }
        }
    }

    /// "90d" or "90" as seconds.
    static func days(_ text: String) throws -> TimeInterval {
        let digits = text.lowercased().hasSuffix("d") ? String(text.dropLast()) : text
        guard let days = Int(digits), (1...3650).contains(days) else {
            throw TallyError.invalid("--expires takes a number of days from 1 to 3650, such as 90d; \"\(text)\" is not.")
        }
        return TimeInterval(days) * 86_400
    }
}

extension TokenCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List a user's tokens.")
        @OptionGroup var options: CommonOptions

        func run() async throws {
            try await reportingErrors {
                let store = try await openStore(options)
                let tokens = try await store.apiTokens(of: try await account(options, store).id)
                try emitPlain(tokens, options) {
                    tokens.isEmpty ? t("No tokens.") : tokens.map {
                        "\($0.id)  \($0.name)  \($0.scope.rawValue)  " + t("created \(Said.moment($0.createdAt))")
                            + "  " + ($0.lastUsedAt.map { t("last used \(Said.moment($0))") } ?? t("never used"))
                            + ($0.expiresAt.map { "  " + t("expires \(Said.moment($0))") } ?? "")
                            + ($0.revokedAt == nil ? "" : "  " + t("revoked"))
                    }.joined(separator: "\n")
                }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a token: it stops working at once.")
        @Argument(help: ArgumentHelp("The token's id.", valueName: "id")) var id: String
        @OptionGroup var options: CommonOptions

        func run() async throws {
            try await reportingErrors {
                let store = try await openStore(options)
                try await store.revokeAPIToken(id: try parseUUID(id), of: try await account(options, store).id, at: Date())
                try emitPlain(["revoked": id], options) { t("Revoked \(id).") }
            }
        }
    }
}

/// An account as the CLI lists it.
struct AccountView: Encodable {
    var name: String
    var isAdmin: Bool
    var disabled: Bool
    init(_ account: Account) {
        name = account.user.name
        isAdmin = account.isAdmin
        disabled = account.disabledAt != nil
    }
}

private func openStore(_ options: CommonOptions) async throws -> any TallyStorage {
    // Accounts and tokens are managed where the server's database is, never through the API.
    guard options.server == nil, options.token == nil else {
        throw TallyError.invalid("`tally user`, `tally token` and `tally server` work on the server's database itself: run them with --database, without --server or --token.")
    }
    return try await StoreLocation(options.database).open(for: .command)
}

/// The account that --user names (a token belongs to someone).
private func account(_ options: CommonOptions, _ store: any TallyStorage) async throws -> User {
    guard let name = options.user else { throw TallyError.invalid("Say whose tokens with --user NAME.") }
    guard let account = try await store.account(named: name) else {
        throw TallyError.notFound("There is no account named \(name); create it with `tally user create \(name)`.")
    }
    return account.user
}

/// A password from the terminal without echo, or the first line of stdin in scripts.
private func readPassword() throws -> String {
    if isatty(STDIN_FILENO) == 1, let typed = getpass(t("Password:") + " ") {
        return String(cString: typed)
    }
    guard let line = readLine(strippingNewline: true), !line.isEmpty else {
        throw TallyError.invalid("Give the password on standard input.")
    }
    return line
}
