// tricktable director console: the night's corrections, each confirmed before it is sent,
// its answer beside the button pressed and in the log strip at the top, and the audit log.
// Every API call carries the admin token. No framework, no build step; el(), showChildren()
// and tableName() come from app.js, loaded first (it draws nothing on this page).
"use strict";

const SEATS = ["N", "E", "S", "W"];
const SEAT_WORDS = { N: "North", E: "East", S: "South", W: "West" };
const CMD_WORDS = {
  replace_action: "Correct", fix_hand: "Fix score", void_hand: "Void", swap: "Swap", settle: "Settle ties",
  ring: "Ring the bell", undo_bell: "Undo the bell", arrive: "Arrival", substitute: "Substitute", end: "End the night",
};
const $ = (id) => document.getElementById(id);
let token = sessionStorage.getItem("token") || "";
let by = sessionStorage.getItem("by") || "";
let pending = null; // the command the dialog asks to confirm: {cmd, args, fill, key}
let view = null; // the night as last read
const answers = new Map(); // button key -> {text, ok}: the answer shown beside that button

function button(text, onclick, attrs = {}) {
  const b = el("button", { type: "button", ...attrs, text });
  b.addEventListener("click", onclick);
  return b;
}

function answerSpan(key) {
  const a = answers.get(key);
  return el("span", { class: `answer ${a ? a.state : ""}`.trim(), "data-answer-for": key, text: a ? a.text : "" });
}

// What shows beside the button pressed: its answer, or that it is on its way.
function besides(key, text, state) {
  answers.set(key, { text, state });
  document.querySelectorAll(`[data-answer-for="${CSS.escape(key)}"]`).forEach((span) => {
    span.textContent = text;
    span.className = `answer ${state}`;
  });
}

// The answer to an action: beside the button pressed and at the top of the log strip.
function say(key, text, ok) {
  besides(key, text, ok ? "ok" : "refused");
  const out = $("result");
  out.textContent = text;
  out.className = ok ? "alert ok" : "alert";
  $("log").prepend(el("li", { class: ok ? "ok" : "refused", text: `${new Date().toLocaleTimeString()} · ${text}` }));
  while ($("log").children.length > 5) $("log").lastChild.remove();
  $("log-strip").hidden = false;
}

// The confirmation step: what will change, optional inputs, then Confirm or Cancel.
function ask(key, text, cmd, args, fields = [], fill = null) {
  pending = { cmd, args, fill, key };
  $("confirm-text").textContent = text;
  const box = $("confirm-field");
  box.replaceChildren(...fields);
  box.hidden = fields.length === 0;
  $("confirm-dialog").showModal();
}

async function send() {
  const { cmd, args, fill, key } = pending;
  let full = args;
  try {
    full = fill ? fill(args) : args;
  } catch (err) {
    say(key, `not sent: ${err.message || err}`, false);
    return;
  }
  $("confirm-dialog").close();
  // an earlier answer beside the same button is not this one's
  besides(key, "Sending…", "sending");
  const r = await fetch("/api/console/command", {
    method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ cmd, args: full, by }),
  });
  const body = await r.json();
  say(key, r.ok ? `Done: ${body.entry.what}: ${body.entry.before} → ${body.entry.after}`
    : `Refused (${CMD_WORDS[cmd] || cmd}): ${body.error}`, r.ok);
  await load();
  // the answer stays where the director looked: beside the button pressed, on the screen
  const beside = document.querySelector(`[data-answer-for="${CSS.escape(key)}"]`);
  if (beside) beside.scrollIntoView({ block: "nearest" });
}

// The audit log's time (kept in UTC) in the club's own time: this screen's clock.
function localTime(iso) {
  const when = new Date(iso);
  return Number.isNaN(when.getTime()) ? iso : when.toLocaleString([], { dateStyle: "short", timeStyle: "medium" });
}

function scoreFields(hand) {
  return [el("label", { text: "Team A (N/S) " }, el("input", { id: "fix-a", type: "number", value: String(hand[0]) })),
    el("label", { text: "Team B (E/W) " }, el("input", { id: "fix-b", type: "number", value: String(hand[1]) }))];
}

function handLine(table, game, hand, n, current) {
  const where = `${tableName(table)}, game ${game}, hand ${n}`;
  const args = current ? { table, hand: n } : { table, hand: n, game };
  const fixKey = `fix:${table}/${game}/${n}`, voidKey = `void:${table}/${game}/${n}`;
  return el("li", {}, `N/S ${hand[0]} · E/W ${hand[1]} `,
    button("Fix score", () => ask(fixKey, `Fix the score of ${where} (now N/S ${hand[0]}, E/W ${hand[1]})`, "fix_hand", args,
      scoreFields(hand), (a) => ({ ...a, score: [Number($("fix-a").value), Number($("fix-b").value)] })),
      { "data-fix": `${table}/${game}/${n}`, ...(view.finished && current ? { disabled: "" } : {}) }),
    answerSpan(fixKey),
    button("Void", () => ask(voidKey, `Void ${where} (N/S ${hand[0]}, E/W ${hand[1]} becomes 0-0)`, "void_hand", args),
      { "data-void": `${table}/${game}/${n}`, ...(view.finished && current ? { disabled: "" } : {}) }),
    answerSpan(voidKey));
}

// The picker: what the action could have been (the cards the seat could play, the bids it
// could make), read from the console's API; the one scanned is marked.
async function correct(t, i, a) {
  const key = `replace:${t.table}/${i + 1}`;
  const r = await fetch(`/api/console/choices/${encodeURIComponent(t.table)}/${i + 1}`, { headers: { Authorization: `Bearer ${token}` } });
  const body = await r.json();
  if (!r.ok) { say(key, `Cannot correct: ${body.error}`, false); return; }
  const others = body.choices.filter((c) => !c.now);
  if (!others.length) { say(key, `Nothing else was possible: the rules allowed only this there (${a.words})`, false); return; }
  const picker = el("fieldset", { class: "picker", id: "picker" }, el("legend", { text: "What it really was" }),
    ...others.map((c, n) => el("label", {}, el("input", { type: "radio", name: "right", value: String(n), ...(n === 0 ? { checked: "" } : {}),
      "data-choice": JSON.stringify(c.action) }), ` ${c.words}`)));
  ask(key, `Correct action ${i + 1} at ${tableName(t.table)} (${a.words}): the later actions are played again after it`,
    "replace_action", { table: t.table, at: i + 1 }, [picker],
    (args) => ({ ...args, action: JSON.parse(document.querySelector("#picker input:checked").dataset.choice) }));
}

function tableCard(t) {
  const seats = SEATS.map((s) => `${SEAT_WORDS[s]} ${t.seats[s]}`).join(" · ");
  const state = [t.phase_words, t.hand_number ? `hand ${t.hand_number}` : null,
    t.closed ? "done after the bell" : view.bell ? "finishing its hand" : null, t.tied && t.closed ? "tied" : null]
    .filter(Boolean).join(" · ");
  // newest first; the hand scans (a card tapped at the deal) only when asked for
  const listed = t.actions.map((a, i) => ({ a, i })).filter(({ a }) => showScans || a.type !== "scan").reverse();
  const actions = el("ol", { class: "actions", reversed: "" }, ...listed.map(({ a, i }) => el("li", { value: String(i + 1) }, `${a.words} `,
    button("Correct", () => correct(t, i, a), { "data-replace": `${t.table}/${i + 1}` }), answerSpan(`replace:${t.table}/${i + 1}`))));
  const scans = t.actions.filter((a) => a.type === "scan").length;
  return el("article", { class: "panel", "data-table": t.table },
    el("h2", { text: `${tableName(t.table)} · N/S ${t.score[0]} – E/W ${t.score[1]}` }),
    el("p", { text: seats }), el("p", { class: "table-state", text: state }),
    el("h3", { text: "Hands this game" }),
    el("ol", {}, ...t.hands.map((h, i) => handLine(t.table, view.round, h, i + 1, true))),
    el("details", { "data-actions": t.table, ...(openActions.has(t.table) ? { open: "" } : {}) },
      el("summary", { text: `Actions this game, newest first (${plural(t.actions.length - (showScans ? 0 : scans), "action")}${scans && !showScans ? `; ${plural(scans, "hand scan")} hidden` : ""})` }),
      ...(scans ? [el("label", { class: "scans" }, el("input", { type: "checkbox", "data-scans": t.table, ...(showScans ? { checked: "" } : {}) }), " show the hand scans")] : []),
      actions));
}
let showScans = false; // the hand scans in the action lists (one per card at the deal: many)
document.addEventListener("change", (e) => {
  if (e.target.dataset && e.target.dataset.scans !== undefined) { showScans = e.target.checked; if (view) render(view); }
});
const openActions = new Set();
document.addEventListener("toggle", (e) => {
  const t = e.target.dataset && e.target.dataset.actions;
  if (t) (e.target.open ? openActions.add(t) : openActions.delete(t));
}, true);

function late(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// What can act now: a button that cannot is disabled (with the reason as its title).
function enable(id, can, why) {
  const b = $(id);
  b.disabled = !can;
  b.title = can ? "" : why;
}

// Read again every 2 s: what did not change stays on the page as it is (showChildren), so a
// press is not lost to a redraw, a picked tie winner stays picked and an open game stays open.
function render(v) {
  view = v;
  // no host has said it runs: nothing the director sends can be done (up's log says why)
  $("host-down").hidden = v.host_running !== false;
  $("phones-link").hidden = !v.phones; // the phones page, when the console pairs phones
  $("round").textContent = `${v.round} of ${v.rounds}`;
  $("bell-state").textContent = v.finished ? "the night is over" : v.bell ? `the bell has rung${v.early ? " (by hand)" : ""}`
    : `${plural(v.hands_left, "hand")} before the bell`;
  const stillPlaying = v.bell && !v.finished ? v.tables.filter((t) => !t.closed) : [];
  $("late-panel").hidden = !v.bell || v.finished;
  showChildren($("late"), ...(stillPlaying.length ? stillPlaying.map((t) => el("li", { "data-late": t.table },
    `${tableName(t.table)}: ${t.phase_words}${t.hand_number ? `, hand ${t.hand_number}` : ""}`,
    v.bell_at ? ` · late ${late(Date.now() / 1000 - v.bell_at)}` : "")) : [el("li", { text: "every table is done" })]));
  enable("ring", !v.finished && !v.bell, v.finished ? "the night is over" : "the bell has rung");
  enable("undo-bell", (v.bell && v.early) || (!v.bell && v.last_early && !v.finished),
    "only a bell rung by hand can be taken back, before the next game begins");
  enable("end", !v.finished, "the night is over");
  for (const id of ["swap", "arrive", "substitute"]) enable(id, !v.finished, "the night is over");
  const tied = v.tables.filter((t) => t.closed && t.tied);
  const picks = tied.map((t) => el("label", { text: `${tableName(t.table)} (tied ${t.score[0]}-${t.score[1]}) winner ` },
    el("select", { "data-tie": t.table }, el("option", { value: "A", text: "N/S" }), el("option", { value: "B", text: "E/W" }))));
  showChildren($("ties"), ...(tied.length ? [el("h3", { text: "Ties waiting" }), ...picks,
    button("Settle ties", () => {
      const winners = {};
      document.querySelectorAll("[data-tie]").forEach((s) => { winners[s.dataset.tie] = s.value; });
      ask("settle", `Settle the ties: ${Object.entries(winners).map(([t, w]) => `${tableName(t)} ${w === "A" ? "N/S" : "E/W"} win`).join(", ")}`, "settle", { winners });
    }, { id: "settle" }), answerSpan("settle")] : []));
  const places = v.tables.flatMap((t) => SEATS.map((s) => ({ table: t.table, seat: s, name: t.seats[s] })));
  // each picker starts on its own seat (the second swap seat at the next table, when there is
  // one), so one press on Swap is never a swap of a seat with itself
  const starts = { "swap-a": 0, "swap-b": places.length > 4 ? 4 : Math.min(1, places.length - 1), "sub-out": 0 };
  for (const id of ["swap-a", "swap-b", "sub-out"]) {
    const select = $(id), keep = select.value;
    select.replaceChildren(...places.map((p) => el("option", { value: id === "sub-out" ? p.name : `${p.table}/${p.seat}`,
      text: `${tableName(p.table)} ${SEAT_WORDS[p.seat]}: ${p.name}` })));
    if (keep && places.some((p) => (id === "sub-out" ? p.name : `${p.table}/${p.seat}`) === keep)) select.value = keep;
    else if (places.length) select.selectedIndex = starts[id];
  }
  showChildren($("tables"), ...v.tables.map(tableCard));
  const opened = new Set([...document.querySelectorAll("#games details[open]")].map((d) => d.dataset.game));
  const game = (g) => el("details", { "data-game": String(g.number), ...(opened.has(String(g.number)) ? { open: "" } : {}) },
    el("summary", { text: `Game ${g.number}` }),
    ...g.tables.map((t) => el("div", {}, el("h3", { text: tableName(t.table) }),
      el("ol", {}, ...t.hands.map((h, i) => handLine(t.table, g.number, h, i + 1, false))))));
  showChildren($("games"), ...v.games.map(game));
  showChildren($("audit"), ...v.audit.map((e) => el("tr", { "data-audit": e.id, class: e.refused ? "refused" : "" },
    el("td", { text: localTime(e.at) }), el("td", { text: e.by }),
    el("td", { text: `${e.refused ? "Refused: " : ""}${CMD_WORDS[e.cmd] || e.cmd}: ${e.what}` }),
    el("td", { text: e.before }), el("td", { text: e.refused ? e.refused : e.after }))));
}

async function load() {
  const r = await fetch("/api/console", { headers: { Authorization: `Bearer ${token}` } });
  const body = await r.json();
  if (!r.ok) {
    $("desk").hidden = true;
    $("signin").hidden = false;
    $("signin-error").textContent = body.error;
    $("signin-error").hidden = false;
    $("status").textContent = "signed out";
    return false;
  }
  $("signin").hidden = true;
  $("desk").hidden = false;
  $("status").textContent = `signed in: ${by}`;
  $("status").className = "live on";
  render(body);
  document.body.dataset.reads = String(Number(document.body.dataset.reads || 0) + 1);
  return true;
}

function place(id) {
  const [table, seat] = $(id).value.split("/");
  return { table, seat };
}

$("signin").addEventListener("submit", async (e) => {
  e.preventDefault();
  token = $("token").value;
  by = $("by").value.trim();
  sessionStorage.setItem("token", token);
  sessionStorage.setItem("by", by);
  await load();
});
$("ring").addEventListener("click", () => ask("ring", "Ring the bell now: every table finishes the hand in play", "ring", {}));
$("undo-bell").addEventListener("click", () => ask("undo-bell", "Undo the bell: the game goes on", "undo_bell", {}));
$("swap").addEventListener("click", () => {
  const a = place("swap-a"), b = place("swap-b");
  ask("swap", `Swap ${tableName(a.table)} ${SEAT_WORDS[a.seat]} and ${tableName(b.table)} ${SEAT_WORDS[b.seat]}`, "swap", { a, b });
});
$("arrive").addEventListener("click", () => {
  const name = $("arrive-name").value.trim();
  ask("arrive", `${name} arrives and plays from the next game`, "arrive", { name });
});
$("substitute").addEventListener("click", () => {
  const out = $("sub-out").value, sub = $("sub-in").value.trim();
  ask("substitute", `${sub} takes ${out}'s seat now; ${out} leaves the night`, "substitute", { out, in: sub });
});
$("end").addEventListener("click", () => ask("end", "End the night: the game in play is the last", "end", {}));
$("confirm").addEventListener("click", send);
$("cancel").addEventListener("click", () => $("confirm-dialog").close());
if (token && by) load();
setInterval(() => { if (!$("desk").hidden && !$("confirm-dialog").open) load(); }, 2000);
