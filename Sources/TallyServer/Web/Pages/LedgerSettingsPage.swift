import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// A ledger's members, name and currency, invite, export and activity log (S1, S5, S6).
struct LedgerSettingsPage {
    var details: LedgerDetails
    var activity: [LedgerActivity]
    /// Who is looking: the owner sees what only they may do (S1).
    var user: UUID
    var now: Date
    var zone: TimeZone
    /// The server's own address, for the invite link.
    var origin: String

    var ledger: UUID { details.ledger.id }
    private var isOwner: Bool { details.owner?.userID == user }
    /// "Only Ada, who owns this ledger, can invite people.", for the invite the page does not
    /// offer everyone else.
    private var ownerOnlyInvites: String {
        details.owner.map { t("Only \($0.name), who owns this ledger, can invite people.") } ?? t("Only the ledger's owner can invite people.")
    }

    func render(_ context: PageContext, notice: String? = nil, error: String? = nil) -> HTML {
        Layout.page(t("\(details.ledger.name) settings"), context, spending: true, notice: notice, error: error, """
        <p class="back"><a href="\(SitePath.ledger.link(ledger))">\(details.ledger.name)</a></p>
        <h1>\(t("Ledger settings"))</h1>
        \(members(context))
        \(invite(context))
        \(general(context))
        <section aria-labelledby="export-title">
        <h2 id="export-title">\(t("Export and import"))</h2>
        <div class="row"><a class="button" href="\(SitePath.exportCSV.link(ledger))" download>\(t("CSV (spreadsheet)"))</a>
        <a class="button" href="\(SitePath.exportJSON.link(ledger))" download>\(t("JSON (everything)"))</a></div>
        <details class="more"><summary>\(t("Import from IHateMoney or Splitwise"))</summary>
        \(SpendingStartPage.importForm(context, into: details.ledger.id))
        </details>
        </section>
        \(activityLink)
        """)
    }

    private func members(_ context: PageContext) -> HTML {
        let rows = details.members.map { member -> HTML in
            let note = member.userID == nil ? t("no account yet") : member.id == details.owner?.id ? t("has joined, owner") : t("has joined")
            // Someone else's account: only the owner renames it (S1).
            let renames = isOwner || member.userID == nil || member.userID == user
            // Removing yourself is leaving, which anyone may do.
            let removes = isOwner || member.userID == user
            return """
            <li><form method="post" action="\(SitePath.member.link(ledger, member.id))" class="inline">
            \(Layout.csrfField(context))
            <span id="member-\(member.id)-name" class="visually-hidden">\(t("Name of \(member.name)"))</span>
            <input id="member-\(member.id)" aria-labelledby="member-\(member.id)-name" name="name" value="\(member.name)" required maxlength="50"\(HTML.flag("readonly", !renames))>
            \(renames ? HTML("<button type=\"submit\" name=\"action\" value=\"rename\" aria-label=\"\(t("Rename \(member.name)"))\">\(t("Rename"))</button>") : "")
            \(removes ? HTML("<button type=\"submit\" name=\"action\" value=\"remove\" class=\"delete\" aria-label=\"\(t("Remove \(member.name)"))\">\(t("Remove"))</button>") : "")
            </form><p class="help">\(note)</p></li>
            """
        }
        return """
        <section aria-labelledby="members-title">
        <h2 id="members-title">\(t("Members (\(details.members.count) of \(LedgerRules.maximumMembers))"))</h2>
        <ul class="kinds">\(rows)</ul>
        <form method="post" action="\(SitePath.members.link(ledger))" class="inline">
        \(Layout.csrfField(context))
        <span id="new-member-name" class="visually-hidden">\(t("New member's name"))</span>
        <input id="new-member" aria-labelledby="new-member-name" name="name" required maxlength="50" placeholder="\(t("New member's name"))">
        <button type="submit">\(t("Add member"))</button>
        </form>
        <p class="help">\(t("The owner invites people, removes members and renames those who joined; everyone records spending.")) \
        \(isOwner ? t("Members with expenses or payments stay; rename them instead.") : "")</p>
        \(handOver(context))
        </section>
        """
    }

    /// For the owner, a way to hand the ledger on to someone who has joined (the members' notes
    /// say who owns it).
    private func handOver(_ context: PageContext) -> HTML {
        let heirs = details.members.filter { $0.userID != nil && $0.id != details.owner?.id }
        guard isOwner, !heirs.isEmpty else { return "" }
        return """
        <details class="more"><summary>\(t("Hand the ledger on"))</summary>
        <form method="post" action="\(SitePath.owner.link(ledger))" class="inline">
        \(Layout.csrfField(context))
        <label for="new-owner">\(t("New owner"))</label>
        <select id="new-owner" name="owner">\(heirs.map { HTML("<option value=\"\($0.id)\">\($0.name)</option>") })</select>
        <button type="submit">\(t("Make owner"))</button>
        </form>
        </details>
        """
    }

    private func invite(_ context: PageContext) -> HTML {
        let current: HTML = details.newInviteCode.map { code in
            let link = "\(origin)\(SitePath.invitation.link(code))"
            // Copy and Share are the page script's (Share only where the browser has the Web
            // Share API); the code and the link are text to select without it.
            return """
            <div class="invite-share" data-invite-link="\(link)">
            <p>\(HTML.sentence("Link: {0}", HTML("<a href=\"\(SitePath.invitation.link(code))\" class=\"invite-link\">\(origin)/join/<wbr><span class=\"code\">\(code)</span></a>")))</p>
            <div class="row"><button type="button" class="primary" data-copy-invite hidden>\(t("Copy link"))</button>\
            <button type="button" data-share-invite hidden>\(t("Share…"))</button></div>
            <p class="help" data-copied role="status"></p>
            \(QRCode.svg(link, title: t("QR code of the invite link to \(details.ledger.name)")) ?? "")
            <p>\(HTML.sentence("Invite code: {0}", HTML("<strong class=\"code\">\(code)</strong>")))</p>
            <p class="help">\(t("Whoever opens the link joins in one step, and picks which member they are; someone without an account creates one on the same page. Copy it now: it is not shown again."))</p>
            <p class="help">\(inviteState)</p>
            </div>
            """
        } ?? "<p class=\"help\">\(inviteState)</p>"
        return """
        <section aria-labelledby="invite-title">
        <h2 id="invite-title">\(t("Invite"))</h2>
        \(current)
        \(isOwner ? inviteForm(context) : HTML("<p class=\"help\">\(ownerOnlyInvites)</p>"))
        </section>
        """
    }

    private var inviteState: String {
        guard let invite = details.invite else { return t("No invite is open.") }
        let until = Written.current.moment(invite.expiresAt, in: zone)
        if invite.usesLeft == 0 { return t("The last invite has been used.") }
        if invite.expiresAt <= now { return t("The last invite expired on \(until).") }
        let uses = invite.usesLeft
        return t(one: "An invite is open until \(until), for one more person.", other: "An invite is open until \(until), for \(uses) more people.")
    }

    /// A new invite, on the terms the owner picks: a week and one person unless they say otherwise.
    private func inviteForm(_ context: PageContext) -> HTML {
        let open = details.invite.map { $0.isValid(at: now) } ?? false
        return """
        <form method="post" action="\(SitePath.invite.link(ledger))" class="stack">
        \(Layout.csrfField(context))
        <details class="more"><summary>\(t(one: "Lasts \(LedgerInviteTerms.defaultDays) day, for one person: change", other: "Lasts \(LedgerInviteTerms.defaultDays) days, for one person: change"))</summary>
        <div class="row">
        <label for="invite-days">\(t("Days it lasts"))</label>
        <input id="invite-days" name="days" type="number" inputmode="numeric" min="\(LedgerInviteTerms.days.lowerBound)" max="\(LedgerInviteTerms.days.upperBound)" value="\(LedgerInviteTerms.defaultDays)">
        <label for="invite-uses">\(t("People who may join"))</label>
        <input id="invite-uses" name="uses" type="number" inputmode="numeric" min="\(LedgerInviteTerms.uses.lowerBound)" max="\(LedgerInviteTerms.uses.upperBound)" value="\(LedgerInviteTerms.defaultUses)">
        </div>
        <p class="help">\(t("Up to \(LedgerInviteTerms.days.upperBound) days and \(LedgerInviteTerms.uses.upperBound) people."))</p>
        </details>
        <div class="row">
        <button type="submit" name="action" value="open">\(details.invite == nil ? t("Create an invite") : t("New code"))</button>
        \(open ? HTML("<button type=\"submit\" name=\"action\" value=\"revoke\" class=\"delete\">\(t("Revoke"))</button>") : "")
        </div>
        </form>
        """
    }


    private func general(_ context: PageContext) -> HTML {
        """
        <section aria-labelledby="general-title">
        <h2 id="general-title">\(t("Name and currency"))</h2>
        <form method="post" action="\(SitePath.ledgerSettings.link(ledger))" class="stack">
        \(Layout.csrfField(context))
        <label for="ledger-name">\(t("Name"))</label>
        <input id="ledger-name" name="name" value="\(details.ledger.name)" required maxlength="100">
        <label for="ledger-currency">\(t("Currency"))</label>
        <input id="ledger-currency" name="currency" value="\(details.ledger.currency.code)" required maxlength="3"\(HTML.flag("readonly", details.hasEntries)) aria-describedby="currency-note">
        <p class="help" id="currency-note">\(details.hasEntries ? t("The currency is fixed once there are expenses.") : t("An ISO 4217 code such as EUR or JPY."))</p>
        <button type="submit">\(t("Save"))</button>
        </form>
        </section>
        """
    }

    /// The way to the ledger's activity, a page of its own: it grows with every change.
    private var activityLink: HTML {
        let latest = activity.first.map { t("Last: \($0.actor ?? t("someone")) \($0.text)") } ?? t("Nothing yet")
        return """
        <section aria-labelledby="log-title">
        <h2 id="log-title">\(t("Activity"))</h2>
        <ul class="settings-list"><li><a href="\(SitePath.ledgerActivity.link(ledger))"><span class="what">\(t("Every change"))</span> \
        <span class="value">\(latest)</span></a></li></ul>
        </section>
        """
    }
}

/// A ledger's activity: who changed what, and when, newest first (S5).
struct LedgerActivityPage {
    var ledger: Ledger
    var activity: [LedgerActivity]
    var zone: TimeZone

    func render(_ context: PageContext) -> HTML {
        let items = activity.map { item -> HTML in
            """
            <li><time datetime="\(Layout.instant(item.at))">\(Written.current.moment(item.at, in: zone))</time>
            <span class="what"><strong>\(item.actor ?? t("someone"))</strong> \(item.phrase.map(Written.current.say) ?? item.text)</span></li>
            """
        }
        return Layout.page(t("\(ledger.name) activity"), context, spending: true, """
        <p class="back"><a href="\(SitePath.ledgerSettings.link(ledger.id))">\(t("\(ledger.name) settings"))</a></p>
        <h1 id="log-title">\(t("Activity"))</h1>
        \(activity.isEmpty ? HTML("<p class=\"empty\">\(t("Nothing yet."))</p>") : HTML("<ul class=\"entries log\" aria-labelledby=\"log-title\">\(items)</ul>"))
        """)
    }
}
