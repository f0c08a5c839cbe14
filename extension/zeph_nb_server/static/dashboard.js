// The zeph-nb dashboard, an ES module: polls the extension's API every few seconds and redraws. No framework and
// no build step: templates/dashboard.html loads it from the extension's static files. Everything shown comes from
// tool calls a model made, so text is only ever set with textContent (never innerHTML): a command like
// `echo "<img onerror=…>"` must stay text.

const BASE = document.querySelector('meta[name="zeph-base"]').content; // "<base_url>zeph/"
const XSRF = document.querySelector('meta[name="zeph-xsrf"]').content;
const POLL_MS = 2000;
const PAGE = 50;

// cards: inbox id → its card element, looked up by id rather than by a selector built from a string.
const state = { offset: 0, paused: false, seenCalls: null, tools: new Set(), categories: new Set(), answered: new Map(), cards: new Map() };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

async function api(path, options) {
  // Every request carries the XSRF token, GETs included: a JupyterHub single-user server (JupyterHub >= 4.1)
  // refuses a cookie-authenticated fetch without it, whatever its method, with a 403 that looks like a logout.
  const headers = { "X-XSRFToken": XSRF, ...((options && options.headers) || {}) };
  const response = await fetch(BASE + "api/" + path, { credentials: "same-origin", ...options, headers });
  const text = await response.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch (_) { body = null; }
  if (!response.ok) {
    const message = (body && (body.message || body.reason)) || text || response.statusText;
    const error = new Error(`${response.status}: ${message}`);
    error.status = response.status;
    throw error;
  }
  return body;
}

// -- filters --------------------------------------------------------------------------------------------------

const form = document.getElementById("filters");

function filterQuery() {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    if (value) params.set(name, value);
  }
  return params;
}

function restoreFilters() {
  const params = new URLSearchParams(location.search);
  for (const [name, value] of params) {
    const field = form.elements.namedItem(name);
    if (!field) continue;
    if (field.tagName === "SELECT" && ![...field.options].some((o) => o.value === value)) {
      field.append(el("option", {}, value));
    }
    field.value = value;
  }
}

function filtersChanged() {
  state.offset = 0;
  state.seenCalls = null; // a new view: nothing in it is "new"
  const query = filterQuery();
  const token = new URLSearchParams(location.search).get("token"); // keep the login the page was opened with
  if (token) query.set("token", token);
  const url = new URL(location.href);
  url.search = query.toString();
  history.replaceState(null, "", url);
  refresh();
}

form.addEventListener("change", filtersChanged);
form.addEventListener("reset", () => setTimeout(filtersChanged, 0));
form.addEventListener("submit", (event) => { event.preventDefault(); filtersChanged(); });

function addOptions(select, values, seen) {
  for (const value of values) {
    if (value === null || value === undefined || seen.has(value)) continue;
    seen.add(value);
    select.append(el("option", {}, value));
  }
}

// -- the inbox ------------------------------------------------------------------------------------------------

const pendingBox = document.getElementById("pending");

function ago(iso) {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return seconds < 90 ? `${seconds}s` : `${Math.round(seconds / 60)} min`;
}

function until(iso) {
  const seconds = Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000));
  return seconds < 90 ? `${seconds}s` : `${Math.round(seconds / 60)} min`;
}

// What a person must see before approving (zeph_nb.output.sanitize.visible, the same rules): control, bidi and
// zero-width characters written out (<U+202E> would otherwise show "exe.txt" for "txt.exe"), a run of empty lines
// shown as how many there are, and the length of a command longer than the box.
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
function visible(text) {
  const shown = String(text)
    .replace(INVISIBLE, (c) => `<U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}>`)
    .replace(/(?:[ \t]*\n){3,}/g, (run) => `\n[${run.split("\n").length - 2} empty lines]\n`);
  const lines = String(text).split("\n").length;
  return lines > 6 || text.length > 400 ? `${shown}\n[${lines} lines, ${text.length} characters in all: scroll to read every one]` : shown;
}

function card(item) {
  const note = el("input", { name: "note", type: "text", placeholder: "note for the model (optional, on Deny)", "aria-label": "note" });
  const result = el("span", { class: "result", role: "status" });
  const buttons = [
    el("button", { type: "button", class: "approve" }, "Approve"),
    el("button", { type: "button", class: "deny" }, "Deny"),
  ];
  const answers = ["approve", "deny"];
  if (item.grantable !== false) {  // never for a command outside the sandbox: it asks every time
    buttons.push(el("button", { type: "button", class: "always", title: "approve, and allow exactly this from now on" }, "Always allow"));
    answers.push("always");
  }
  buttons.forEach((button, i) => button.addEventListener("click", () => answer(item, answers[i], note, buttons, result)));
  const waited = el("dd", { class: "waited" }, `${ago(item.requested_at)} (times out in ${until(item.expires_at)})`);
  const node = el("article", { class: "card", "data-id": item.id, "aria-label": `approval request: ${item.summary}` },
    el("div", {}, el("b", {}, item.requester), " wants to run"),
    el("pre", {}, visible(item.summary)),
    el("dl", {},
      // One plain sentence first; then the rules' own words, for whoever tunes the configuration.
      el("dt", {}, "why"), el("dd", {}, item.why || item.reason),
      el("dt", {}, "rule"), el("dd", { class: "muted" }, item.reason.includes(item.rule) ? item.reason : `${item.rule}: ${item.reason}`),
      el("dt", {}, "touches"), el("dd", {}, visible(item.subjects.join(", "))),
      el("dt", {}, "conversation"), el("dd", {}, item.conversation_id || "—"),
      el("dt", {}, "waiting"), waited),
    el("details", {}, el("summary", {}, "Arguments"), el("pre", {}, JSON.stringify(item.params, null, 2))),
    el("div", { class: "actions" }, ...buttons, note, result));
  node.refresh = (fresh) => { waited.textContent = `${ago(fresh.requested_at)} (times out in ${until(fresh.expires_at)})`; };
  return node;
}

async function answer(item, choice, note, buttons, result) {
  buttons.forEach((b) => { b.disabled = true; });
  result.textContent = "sending…";
  try {
    const body = { answer: choice };
    if (note.value.trim()) body.note = note.value.trim();
    const done = await api(`approvals/${item.id}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-XSRFToken": XSRF },
      body: JSON.stringify(body),
    });
    const verb = { approve: "Approved", always: "Always allowed", deny: "Denied" }[choice];
    const next = choice === "deny" ? "the run is told within a second" : "the run goes on within a second";
    result.textContent = `${verb} by ${done.answered_by} — ${next}`;
    result.closest(".card").classList.add(choice === "deny" ? "denied" : "approved");
    state.answered.set(item.id, Date.now());
  } catch (error) {
    result.textContent = error.status === 409 ? `Too late: ${error.message.replace(/^409: /, "")}` : `Failed: ${error.message}`;
    if (error.status !== 409) buttons.forEach((b) => { b.disabled = false; });
    else state.answered.set(item.id, Date.now());
  }
}

// The organisation's managed settings: which keys no user setting can loosen (text only: values are the file's).
function drawManaged(managed) {
  const badge = document.getElementById("managed");
  badge.hidden = !managed;
  if (!managed) return;
  const keys = Object.keys(managed.values).sort();
  badge.textContent = `managed: ${keys.length} setting${keys.length === 1 ? "" : "s"}`;
  const lines = keys.map((key) => `${key} = ${JSON.stringify(managed.values[key])}`);
  const ignored = managed.refused.length ? `\n\nIgnored: ${managed.refused.join("\n")}` : "";
  badge.title = `Set by ${managed.path}; no user setting can loosen them:\n${lines.join("\n")}${ignored}`;
}

function drawInbox(pending, recent) {
  const ids = new Set(pending.map((item) => item.id));
  for (const [id, node] of state.cards) {
    const answeredAt = state.answered.get(id);
    // An answered card stays a few seconds so the person sees their answer land; then it moves to "decided".
    if (!ids.has(id) && !(answeredAt && Date.now() - answeredAt < 4000)) {
      node.remove();
      state.cards.delete(id);
    }
  }
  for (const item of pending) {
    const existing = state.cards.get(item.id);
    if (existing) existing.refresh(item);
    else if (!state.answered.has(item.id)) {
      const node = card(item);
      state.cards.set(item.id, node);
      pendingBox.append(node);
    }
  }
  const count = document.getElementById("pending-count");
  count.textContent = String(pending.length);
  count.classList.toggle("hot", pending.length > 0);
  document.getElementById("inbox-empty").hidden = pendingBox.children.length > 0;
  document.title = pending.length ? `(${pending.length}) zeph-nb · approvals waiting` : "zeph-nb · audit log and approvals";

  const tbody = document.querySelector("#decided tbody");
  tbody.replaceChildren(...recent.filter((item) => item.state !== "pending").slice(0, 20).map((item) =>
    el("tr", { "data-id": item.id },
      el("td", {}, item.requested_at.replace("T", " ").slice(0, 19)),
      el("td", { class: "what" }, item.summary),
      el("td", { class: `status-${item.state}` }, item.state + (item.outcome === "always" ? " (always)" : "")),
      el("td", {}, item.decided_by || item.answered_by || "—"),
      el("td", {}, item.requester))));
}

// -- charts ---------------------------------------------------------------------------------------------------

function bars(target, rows, segments, label) {
  const box = document.getElementById(target);
  const max = Math.max(1, ...rows.map((row) => row.calls));
  if (!rows.length) { box.replaceChildren(el("p", { class: "muted" }, "no calls match")); return; }
  box.replaceChildren(...rows.map((row) => {
    const track = el("div", { class: "track", role: "img", "aria-label": `${label(row)}: ${row.calls} calls` });
    for (const [cls, value] of segments(row)) {
      if (value > 0) track.append(el("div", { class: `seg ${cls}`, style: `width:${(100 * value) / max}%`, title: `${cls}: ${value}` }));
    }
    return el("div", { class: "row" }, el("span", { class: "label", title: label(row) }, label(row)), track,
      el("span", { class: "value" }, row.calls));
  }));
}

// -- calls ----------------------------------------------------------------------------------------------------


function cell(value, cls) {
  return el("td", cls ? { class: cls } : {}, value === null || value === undefined ? "" : value);
}

function drawCalls(page) {
  const tbody = document.querySelector("#calls tbody");
  const seen = new Set();
  const rows = page.rows.map((row) => {
    const key = `${row.conversation_id}/${row.call_id}/${row.ts}`;
    seen.add(key);
    const fresh = state.seenCalls !== null && !state.seenCalls.has(key);
    return el("tr", { class: fresh ? "fresh" : null, "data-call": row.call_id },
      cell((row.ts || "").replace("T", " ").slice(0, 19)),
      cell(row.tool),
      el("td", { class: "what", title: row.what }, row.what),  // summarized by the API (tools/base.py call_summary)
      cell(row.status, `status-${row.status}`),
      cell(row.decision),
      el("td", { title: row.reason || "" }, row.matched_rule || ""),
      cell(row.approved_by),
      cell(row.sandbox, row.sandbox === "bwrap" || !row.sandbox ? null : "sandbox-off"),
      cell(row.exit_code, "num"),
      cell(row.error_category),
      el("td", { class: "num", title: row.waited_ms ? `plus ${Math.round(row.waited_ms / 100) / 10} s waiting for approval` : "" },
        row.duration_ms === null ? "" : String(Math.round(row.duration_ms)) + (row.waited_ms ? ` (+${Math.round(row.waited_ms / 1000)} s wait)` : "")),
      cell(row.tokens_saved, "num"));
  });
  state.seenCalls = seen;
  tbody.replaceChildren(...rows);
  if (!rows.length) tbody.append(el("tr", {}, el("td", { colspan: 12, class: "muted" }, "no calls match these filters")));
  const last = Math.min(page.offset + page.rows.length, page.total);
  document.getElementById("total").textContent = `(${page.total} matching)`;
  document.getElementById("page").textContent = page.total ? `${page.offset + 1}–${last} of ${page.total}` : "";
  document.getElementById("newer").disabled = page.offset === 0;
  document.getElementById("older").disabled = last >= page.total;
}

document.getElementById("newer").addEventListener("click", () => { state.offset = Math.max(0, state.offset - PAGE); refresh(); });
document.getElementById("older").addEventListener("click", () => { state.offset += PAGE; refresh(); });

// -- polling --------------------------------------------------------------------------------------------------

const live = document.getElementById("live");
const errorBox = document.getElementById("error");
let timer = null;

async function refresh() {
  clearTimeout(timer);
  const query = filterQuery();
  const exportQuery = query.toString();
  document.getElementById("export-csv").href = `${BASE}api/audit.csv${exportQuery ? "?" + exportQuery : ""}`;
  document.getElementById("export-parquet").href = `${BASE}api/audit.parquet${exportQuery ? "?" + exportQuery : ""}`;
  const paged = new URLSearchParams(query);
  paged.set("limit", PAGE);
  paged.set("offset", state.offset);
  try {
    // One request, one read of the store (api/dashboard); api/audit, api/audit/aggregates and api/approvals
    // serve the same data separately.
    const { audit: page, aggregates, approvals, sandbox, managed } = await api(`dashboard?${paged}`);
    drawManaged(managed);
    const badge = document.getElementById("sandbox");
    // What this machine can do; each call's row says how that call actually ran (a kernel may turn it off).
    badge.textContent = sandbox.active ? "shell sandbox available (bubblewrap)" : "no shell sandbox on this machine";
    badge.title = `${sandbox.description}. The Sandbox column says how each command ran.`;
    badge.classList.toggle("off", !sandbox.active);
    // Why not and what fixes it, in words a person can act on (text only: it quotes bubblewrap's own message).
    const why = document.getElementById("sandbox-why");
    why.hidden = sandbox.active;
    why.textContent = sandbox.active ? "" : `Shell commands are not sandboxed: ${sandbox.reason}. Every command `
      + `that may change anything asks first.${sandbox.fix ? ` To fix: ${sandbox.fix}.` : ""}`;
    drawInbox(approvals.pending, approvals.recent);
    addOptions(form.elements.namedItem("tool"), aggregates.by_tool.map((r) => r.tool), state.tools);
    addOptions(form.elements.namedItem("category"), aggregates.by_category.map((r) => r.category).filter((c) => c !== "none"), state.categories);
    bars("by-tool", aggregates.by_tool,
      (r) => [["ok", r.calls - r.errors - r.denied - (r.cancelled || 0)], ["err", r.errors], ["den", r.denied],
        ["can", r.cancelled || 0]], (r) => r.tool);  // a stopped call is not a success: grey, not green
    bars("by-category", aggregates.by_category, (r) => [["cat", r.calls]],
      (r) => (r.category === "none" ? "(no error)" : r.category));
    drawCalls(page);
    errorBox.hidden = true;
    // In UTC, as the table's times are: a local clock beside UTC rows reads as data hours old.
    live.textContent = `updated ${new Date().toISOString().slice(11, 19)} UTC${state.paused ? " · paused" : ""}`;
    live.classList.remove("stale");
  } catch (error) {
    // 401: the login is gone. 403: the server knows who this is and refuses (its message says why).
    errorBox.textContent = error.status === 401
      ? "Not logged in to this Jupyter server any more: reload the page (with ?token=… if it uses a token)."
      : error.status === 403
        ? `Refused by this Jupyter server (${error.message}); reload the page, and if it stays, ask who runs it.`
        : `Could not load: ${error.message}`;
    errorBox.hidden = false;
    live.textContent = "not updating";
    live.classList.add("stale");
  }
  if (!state.paused) timer = setTimeout(refresh, POLL_MS);
}

document.getElementById("pause").addEventListener("click", (event) => {
  state.paused = !state.paused;
  event.target.textContent = state.paused ? "Resume updates" : "Pause updates";
  event.target.setAttribute("aria-pressed", String(state.paused));
  refresh();
});
// A hidden tab does not poll; it catches up the moment it is shown again.
document.addEventListener("visibilitychange", () => {
  if (document.hidden) clearTimeout(timer);
  else if (!state.paused) refresh();
});

restoreFilters();
refresh();
