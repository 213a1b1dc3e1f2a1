// tricktable director console: the night's corrections, each confirmed before it is sent,
// and the audit log. Every API call carries the admin token. No framework, no build step;
// el() comes from app.js, loaded first (it draws nothing on this page).
"use strict";

const SEATS = ["N", "E", "S", "W"];
const $ = (id) => document.getElementById(id);
let token = sessionStorage.getItem("token") || "";
let by = sessionStorage.getItem("by") || "";
let pending = null; // the command the dialog asks to confirm: {cmd, args, fill}

function button(text, onclick, attrs = {}) {
  const b = el("button", { type: "button", ...attrs, text });
  b.addEventListener("click", onclick);
  return b;
}

function actionText(a) {
  const rest = Object.entries(a).filter(([k]) => k !== "type" && k !== "seat").map(([, v]) => v).join(" ");
  return `seat ${a.seat} ${a.type} ${rest}`.trim();
}

function say(text, ok) {
  const out = $("result");
  out.textContent = text;
  out.className = ok ? "alert ok" : "alert";
  out.hidden = false;
}

// The confirmation step: what will change, optional inputs, then Confirm or Cancel.
function ask(text, cmd, args, fields = [], fill = null) {
  pending = { cmd, args, fill };
  $("confirm-text").textContent = text;
  const box = $("confirm-field");
  box.replaceChildren(...fields);
  box.hidden = fields.length === 0;
  $("confirm-dialog").showModal();
}

async function send() {
  const { cmd, args, fill } = pending;
  let full = args;
  try {
    full = fill ? fill(args) : args;
  } catch (err) {
    say(String(err.message || err), false);
    return;
  }
  $("confirm-dialog").close();
  const r = await fetch("/api/console/command", {
    method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ cmd, args: full, by }),
  });
  const body = await r.json();
  say(r.ok ? `done: ${body.entry.what}: ${body.entry.before} → ${body.entry.after}` : `refused: ${body.error}`, r.ok);
  await load();
}

function scoreFields(hand) {
  return [el("label", { text: "Team A " }, el("input", { id: "fix-a", type: "number", value: String(hand[0]) })),
    el("label", { text: "Team B " }, el("input", { id: "fix-b", type: "number", value: String(hand[1]) }))];
}

function handLine(table, game, hand, n, current) {
  const where = `table ${table}, game ${game}, hand ${n}`;
  const args = current ? { table, hand: n } : { table, hand: n, game };
  return el("li", {}, `A ${hand[0]} · B ${hand[1]} `,
    button("Fix score", () => ask(`Fix the score of ${where} (now A ${hand[0]}, B ${hand[1]})`, "fix_hand", args,
      scoreFields(hand), (a) => ({ ...a, score: [Number($("fix-a").value), Number($("fix-b").value)] })),
      { "data-fix": `${table}/${game}/${n}` }),
    button("Void", () => ask(`Void ${where} (A ${hand[0]}, B ${hand[1]} becomes 0-0)`, "void_hand", args),
      { "data-void": `${table}/${game}/${n}` }));
}

function tableCard(view, t) {
  const seats = SEATS.map((s) => `${s} ${t.seats[s]}`).join(" · ");
  const state = [t.phase ? `phase ${t.phase}` : null, t.closed ? "closed" : null, t.tied && t.closed ? "tied" : null]
    .filter(Boolean).join(" · ");
  // a card: type the right card; a bid or token: edit the action itself
  const rightOne = (a) => (a.card !== undefined
    ? [[el("label", { text: "Right card " }, el("input", { id: "new-card", size: "6", value: a.card }))],
      (args) => ({ ...args, action: { ...a, card: $("new-card").value.trim().toUpperCase() } })]
    : [[el("label", { text: "Right action " }, el("input", { id: "new-action", size: "40", value: JSON.stringify(a) }))],
      (args) => ({ ...args, action: JSON.parse($("new-action").value) })]);
  const actions = el("ol", { class: "actions" }, ...t.actions.map((a, i) => el("li", {}, `${actionText(a)} `,
    button("Correct", () => ask(`Correct action ${i + 1} at table ${t.table} (${actionText(a)}): the later actions are played again after it`,
      "replace_action", { table: t.table, at: i + 1 }, ...rightOne(a)), { "data-replace": `${t.table}/${i + 1}` }))));
  return el("article", { class: "panel", "data-table": t.table },
    el("h2", { text: `Table ${t.number} (${t.table}) · A ${t.score[0]} – B ${t.score[1]}` }),
    el("p", { text: seats }), el("p", { text: state }),
    el("h3", { text: "Hands this game" }),
    el("ol", {}, ...t.hands.map((h, i) => handLine(t.table, view.round, h, i + 1, true))),
    el("h3", { text: "Actions this game" }), actions);
}

// Read again every 2 s: what did not change stays on the page as it is (showChildren), so a
// press is not lost to a redraw, a picked tie winner stays picked and an open game stays open.
function render(view) {
  $("round").textContent = `${view.round} of ${view.rounds}`;
  $("bell-state").textContent = view.finished ? "the night is over" : view.bell ? `bell rung${view.early ? " by hand" : ""}`
    : `${view.hands_left} hand(s) before the bell`;
  const tied = view.tables.filter((t) => t.closed && t.tied);
  const picks = tied.map((t) => el("label", { text: `${t.table} (tied ${t.score[0]}-${t.score[1]}) winner ` },
    el("select", { "data-tie": t.table }, el("option", { value: "A", text: "A (N/S)" }), el("option", { value: "B", text: "B (E/W)" }))));
  showChildren($("ties"), ...(tied.length ? [el("h3", { text: "Ties waiting" }), ...picks,
    button("Settle ties", () => {
      const winners = {};
      document.querySelectorAll("[data-tie]").forEach((s) => { winners[s.dataset.tie] = s.value; });
      ask(`Settle the ties: ${Object.entries(winners).map(([t, w]) => `${t} team ${w}`).join(", ")}`, "settle", { winners });
    }, { id: "settle" })] : []));
  const places = view.tables.flatMap((t) => SEATS.map((s) => ({ table: t.table, seat: s, name: t.seats[s] })));
  for (const id of ["swap-a", "swap-b"]) {
    const select = $(id), keep = select.value;
    select.replaceChildren(...places.map((p) => el("option", { value: `${p.table}/${p.seat}`, text: `${p.table} ${p.seat}: ${p.name}` })));
    if (keep) select.value = keep;
  }
  showChildren($("tables"), ...view.tables.map((t) => tableCard(view, t)));
  const opened = new Set([...document.querySelectorAll("#games details[open]")].map((d) => d.dataset.game));
  const game = (g) => el("details", { "data-game": String(g.number), ...(opened.has(String(g.number)) ? { open: "" } : {}) },
    el("summary", { text: `Game ${g.number}` }),
    ...g.tables.map((t) => el("div", {}, el("h3", { text: t.table }),
      el("ol", {}, ...t.hands.map((h, i) => handLine(t.table, g.number, h, i + 1, false))))));
  showChildren($("games"), ...view.games.map(game));
  showChildren($("audit"), ...view.audit.map((e) => el("tr", { "data-audit": e.id },
    el("td", { text: e.at }), el("td", { text: e.by }), el("td", { text: `${e.cmd}: ${e.what}` }),
    el("td", { text: e.before }), el("td", { text: e.after }))));
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
$("ring").addEventListener("click", () => ask("Ring the bell now: every table finishes the hand in play", "ring", {}));
$("undo-bell").addEventListener("click", () => ask("Undo the bell: the game goes on", "undo_bell", {}));
$("swap").addEventListener("click", () => {
  const a = place("swap-a"), b = place("swap-b");
  ask(`Swap ${a.table} ${a.seat} and ${b.table} ${b.seat}`, "swap", { a, b });
});
$("arrive").addEventListener("click", () => {
  const name = $("arrive-name").value.trim();
  ask(`${name} arrives and plays from the next game`, "arrive", { name });
});
$("substitute").addEventListener("click", () => {
  const out = $("sub-out").value.trim(), sub = $("sub-in").value.trim();
  ask(`${sub} takes ${out}'s seat now; ${out} leaves the night`, "substitute", { out, in: sub });
});
$("end").addEventListener("click", () => ask("End the night: the game in play is the last", "end", {}));
$("confirm").addEventListener("click", send);
$("cancel").addEventListener("click", () => $("confirm-dialog").close());
if (token && by) load();
setInterval(() => { if (!$("desk").hidden && !$("confirm-dialog").open) load(); }, 2000);
