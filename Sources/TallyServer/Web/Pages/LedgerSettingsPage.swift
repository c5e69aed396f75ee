import Foundation
import TallyCore
import TallyStore

/// A ledger's members, name and currency, invite, export and activity log (S1, S5, S6).
struct LedgerSettingsPage {
    var details: LedgerDetails
    var activity: [LedgerActivity]
    var zone: TimeZone
    /// The server's own address, for the invite link.
    var origin: String

    var base: String { "/spending/\(details.ledger.id)" }

    func render(_ context: PageContext, notice: String? = nil, error: String? = nil) -> HTML {
        Layout.page("\(details.ledger.name) settings", context, notice: notice, error: error, """
        <p><a href="\(base)">← \(details.ledger.name)</a></p>
        <h1>Ledger settings</h1>
        \(members(context))
        \(invite(context))
        \(general(context))
        <section aria-labelledby="export-title">
        <h2 id="export-title">Export</h2>
        <div class="row"><a class="button" href="\(base)/export.csv" download>CSV (spreadsheet)</a>
        <a class="button" href="\(base)/export.json" download>JSON (everything)</a></div>
        </section>
        <section aria-labelledby="import-title">
        <h2 id="import-title">Import from IHateMoney</h2>
        \(SpendingStartPage.importForm(context, into: details.ledger.id))
        </section>
        \(log)
        """)
    }

    private func members(_ context: PageContext) -> HTML {
        let rows = details.members.map { member -> HTML in
            let note = member.userID == nil ? "no account yet" : "has joined"
            return """
            <li><form method="post" action="\(base)/members/\(member.id)" class="inline">
            \(Layout.csrfField(context))
            <label for="member-\(member.id)" class="visually-hidden">Name of \(member.name)</label>
            <input id="member-\(member.id)" name="name" value="\(member.name)" required maxlength="50">
            <button type="submit" name="action" value="rename" aria-label="Rename \(member.name)">Rename</button>
            <button type="submit" name="action" value="remove" class="delete" aria-label="Remove \(member.name)">Remove</button>
            </form><p class="help">\(note)</p></li>
            """
        }
        return """
        <section aria-labelledby="members-title">
        <h2 id="members-title">Members (\(details.members.count) of \(LedgerRules.maximumMembers))</h2>
        <ul class="kinds">\(rows)</ul>
        <form method="post" action="\(base)/members" class="inline">
        \(Layout.csrfField(context))
        <label for="new-member" class="visually-hidden">New member's name</label>
        <input id="new-member" name="name" required maxlength="50" placeholder="New member's name">
        <button type="submit">Add member</button>
        </form>
        <p class="help">Members with expenses or payments stay; rename them instead.</p>
        </section>
        """
    }

    private func invite(_ context: PageContext) -> HTML {
        let current: HTML = details.inviteCode.map { code in
            """
            <p>Invite code: <strong class="code">\(code)</strong></p>
            <p>Link: <a href="/join/\(code)" class="invite-link">\(origin)/join/<wbr><span class="code">\(code)</span></a></p>
            <p class="help">Whoever has the code can join once signed in. Revoke it when everyone is in.</p>
            """
        } ?? "<p class=\"help\">No invite is open.</p>"
        return """
        <section aria-labelledby="invite-title">
        <h2 id="invite-title">Invite</h2>
        \(current)
        <form method="post" action="\(base)/invite" class="row">
        \(Layout.csrfField(context))
        <button type="submit" name="action" value="open">\(details.inviteCode == nil ? "Create an invite" : "New code")</button>
        \(details.inviteCode == nil ? "" : HTML("<button type=\"submit\" name=\"action\" value=\"revoke\" class=\"delete\">Revoke</button>"))
        </form>
        </section>
        """
    }

    private func general(_ context: PageContext) -> HTML {
        """
        <section aria-labelledby="general-title">
        <h2 id="general-title">Name and currency</h2>
        <form method="post" action="\(base)/settings" class="stack">
        \(Layout.csrfField(context))
        <label for="ledger-name">Name</label>
        <input id="ledger-name" name="name" value="\(details.ledger.name)" required maxlength="100">
        <label for="ledger-currency">Currency</label>
        <input id="ledger-currency" name="currency" value="\(details.ledger.currency.code)" required maxlength="3"\(HTML.flag("readonly", details.hasEntries)) aria-describedby="currency-note">
        <p class="help" id="currency-note">\(details.hasEntries ? "The currency is fixed once there are expenses." : "An ISO 4217 code such as EUR or JPY.")</p>
        <button type="submit">Save</button>
        </form>
        </section>
        """
    }

    private var log: HTML {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let items = activity.map { item -> HTML in
            """
            <li><time datetime="\(ISO8601DateFormatter().string(from: item.at))">\(formatter.string(from: item.at))</time>
            <span class="what"><strong>\(item.actor ?? "someone")</strong> \(item.text)</span></li>
            """
        }
        return """
        <section aria-labelledby="log-title">
        <h2 id="log-title">Activity</h2>
        \(activity.isEmpty ? HTML("<p class=\"empty\">Nothing yet.</p>") : HTML("<ul class=\"entries log\">\(items)</ul>"))
        </section>
        """
    }
}
