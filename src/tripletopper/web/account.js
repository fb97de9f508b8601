// The lobby's account panel: sign in or create an account (optional: guests play as
// before), and once signed in, sign out, change the password or delete the account.
// Calls onChange(account or null) whenever who is signed in changes.  "Your bots" makes bot
// accounts and their API tokens (docs/bots-api.md).
import { api, clear, el, signedIn, signedOut, whoAmI } from "/static/common.js";

function field(label, name, type = "text", autocomplete = "off") {
  return el("label", {}, `${label} `,
    el("input", { name, type, required: true, autocomplete, maxlength: type === "password" ? 256 : 32 }));
}

export async function accountPanel(box, onChange) {
  const error = el("div", { class: "error", role: "alert", id: "account-error" });
  const fail = (e) => { error.textContent = e.message; };

  function showGuest() {
    const form = el("form", { id: "sign-in-form" },
      el("div", {}, field("Name", "name", "text", "username"),
        field("Password", "password", "password", "current-password")),
      el("button", { type: "submit", id: "sign-in" }, "Sign in"), " ",
      el("button", { type: "button", id: "sign-up" }, "Create an account"),
      el("p", { class: "muted" }, "Optional: guests play without one. An account keeps your games and ratings."));
    const send = async (path) => {
      error.textContent = "";
      const data = new FormData(form);
      try {
        const account = signedIn(await api("POST", path, { name: data.get("name"), password: data.get("password") }));
        if (backToTable()) { location.href = backToTable(); return; }  // the table keeps the seat
        show(account);
      } catch (e) { fail(e); }
    };
    form.addEventListener("submit", (event) => { event.preventDefault(); send("/api/session"); });
    form.querySelector("#sign-up").addEventListener("click", () => {
      if (form.reportValidity()) send("/api/account");
    });
    return form;
  }

  function showAccount(account) {
    const change = el("form", { id: "password-form" },
      field("Current password", "password", "password", "current-password"),
      field("New password", "new_password", "password", "new-password"),
      el("button", { type: "submit" }, "Change password"));
    change.addEventListener("submit", async (event) => {
      event.preventDefault();
      const data = new FormData(change);
      try {
        await api("POST", "/api/account/password", { password: data.get("password"), new_password: data.get("new_password") });
        change.reset();
        error.textContent = "Password changed.";
      } catch (e) { fail(e); }
    });
    const remove = el("form", { id: "delete-form" },
      field("Password", "password", "password", "current-password"),
      el("button", { type: "submit", class: "danger" }, "Delete my account"),
      el("p", { class: "muted" }, "Your name and sign-in are removed; your games stay, played by \u201cDeleted player\u201d."));
    remove.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await api("DELETE", "/api/account", { password: new FormData(remove).get("password") });
        signedOut();
        show(null);
      } catch (e) { fail(e); }
    });
    const out = el("button", { type: "button", id: "sign-out" }, "Sign out");
    out.addEventListener("click", async () => {
      try { await api("DELETE", "/api/session"); signedOut(); show(null); } catch (e) { fail(e); }
    });
    return el("div", {},
      botsPanel(fail),
      el("p", { id: "signed-in-as" }, "Signed in as ", el("strong", {}, account.name), " ",
        el("a", { href: `/players/${encodeURIComponent(account.name)}`, id: "my-page" }, "your page"), " ", out),
      el("details", {}, el("summary", {}, "Account settings"), change, remove));
  }

  function show(account) {
    clear(box).append(account ? showAccount(account) : showGuest(), error);
    onChange(account);
  }

  show(await whoAmI());
}

// Bot accounts of the signed-in person: make one, make a token (shown once), revoke one.
function botsPanel(fail) {
  const list = el("ul", { id: "bot-list" });
  const shown = el("p", { id: "new-token", role: "status" });
  const draw = async () => {
    const { bots } = await api("GET", "/api/bots");
    clear(list).append(...bots.map((bot) => el("li", { "data-bot": bot.name },
      el("strong", {}, bot.name), bot.online ? el("span", { class: "badge" }, "online") : null, " ",
      el("button", { type: "button", class: "secondary", onclick: async () => {
        try {
          const made = await api("POST", `/api/bots/${encodeURIComponent(bot.name)}/tokens`, {});
          clear(shown).append("Token for ", bot.name, " (shown once): ", el("code", {}, made.token));
          await draw();
        } catch (e) { fail(e); }
      } }, "New token"),
      el("ul", {}, bot.tokens.filter((t) => !t.revoked_at).map((t) => el("li", {}, `token ${t.id}`,
        t.expires_at ? ` (expires ${new Date(t.expires_at * 1000).toLocaleDateString()})` : "", " ",
        el("button", { type: "button", class: "secondary", onclick: async () => {
          try { await api("DELETE", `/api/bots/${encodeURIComponent(bot.name)}/tokens/${t.id}`); await draw(); } catch (e) { fail(e); }
        } }, "Revoke")))))));
  };
  const form = el("form", { id: "new-bot-form" }, field("Bot name", "name"),
    el("button", { type: "submit", class: "secondary" }, "Make a bot account"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try { await api("POST", "/api/bots", { name: new FormData(form).get("name") }); form.reset(); await draw(); } catch (e) { fail(e); }
  });
  draw().catch(fail);
  return el("details", { id: "bots-panel" }, el("summary", {}, "Your bots"),
    el("p", { class: "muted" }, "Bots written anywhere play here under their own name: ",
      el("a", { href: "/docs" }, "API"), ", tripletopper bot connect, docs/bots-api.md."),
    list, shown, form);
}

// The table page a guest came from to sign in (only a table of this room: /t/ID).
function backToTable() {
  const back = new URLSearchParams(location.search).get("back") || "";
  return /^\/t\/[A-Za-z0-9]{1,32}$/.test(back) ? back : null;
}
