// tricktable scoreboard: renders the club, table and replay pages from the JSON API and
// keeps them live over server-sent events. No framework, no build step.
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const POSITIONS = ["s", "w", "n", "e"]; // seat 0 at the bottom, play goes clockwise

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

// Show `nodes` as the children of `box`, keeping each child that is the same already. Live
// pages redraw on every update; replacing what did not change would swallow a click (or a
// tap) that lands between its press and release, restart a tile's flash, and undo what a
// person picked in a form. A kept child keeps its own listeners: right when they act on
// what the child shows, which is the same. A child that changed but is the same table's
// (its tag and data-table alike: a club page's card while its table plays) is renewed in place,
// its attributes and contents, so a press on it and the release after an update land on one
// element and still make a click.
function showChildren(box, ...nodes) {
  nodes.forEach((node, i) => {
    const old = box.childNodes[i];
    if (!old) box.append(node);
    else if (old.isEqualNode(node)) return;
    else if (sameTable(old, node)) renew(old, node);
    else old.replaceWith(node);
  });
  while (box.childNodes.length > nodes.length) box.lastChild.remove();
}

function sameTable(old, node) {
  return old.nodeType === Node.ELEMENT_NODE && old.tagName === node.tagName
    && old.dataset.table !== undefined && old.dataset.table === node.dataset.table;
}

function renew(old, node) {
  for (const name of old.getAttributeNames()) if (!node.hasAttribute(name)) old.removeAttribute(name);
  for (const name of node.getAttributeNames()) old.setAttribute(name, node.getAttribute(name));
  old.replaceChildren(...node.childNodes);
}

// Player pages, when the scoreboard has a club database: /api/players/names maps each public
// name (casefolded) to its player's public id (their current name, casefolded). Hidden players and Guests are not in it (and their
// names never reach the page: the server says "Guest"), so they are never linked. Read again
// every minute, so a player counted later in the night gets a link too.
let playerIds = new Map();
async function loadPlayerIds() {
  try {
    const r = await fetch("/api/players/names");
    if (!r.ok) return;
    const names = await r.json();
    playerIds = new Map(Object.entries(names.players));
    if (!names.club) return; // no club database: no player pages, no leaderboard
    document.querySelectorAll("[data-needs-club]").forEach((node) => { node.hidden = false; });
    document.body.dataset.players = String(playerIds.size);
  } catch (_) { /* offline: names stay plain until the next read */ }
}
const playersReady = loadPlayerIds().then(() => {
  if (document.body.dataset.players) setInterval(loadPlayerIds, 60000);
});

// A link saying `text` to the page of the player called `name`, or null when they have none.
function playerPageLink(name, text, attrs = {}) {
  const id = name == null ? undefined : playerIds.get(String(name).trim().toLowerCase());
  if (id === undefined) return null;
  return el("a", { ...attrs, class: `${attrs.class || ""} player-link`.trim(), href: `/player/${encodeURIComponent(id)}`, text });
}

// A player's name: a link to their page when they have a public one, else plain text.
function playerName(name, attrs = {}) {
  return playerPageLink(name, name, attrs) || el("span", { ...attrs, text: name });
}

function parseCard(text) {
  const copy = text.endsWith("'");
  const core = copy ? text.slice(0, -1) : text;
  if (core === "JOKER") return { rank: "★", suit: "", red: false, copy, joker: true };
  const suit = core.slice(-1);
  return { rank: core.slice(0, -1), suit: SUITS[suit] || suit, red: suit === "H" || suit === "D", copy };
}

function cardLabel(text) {
  const c = parseCard(text);
  return c.joker ? "Joker" : `${c.rank}${c.suit}${c.copy ? "′" : ""}`;
}

function cardFace(text, extra = "") {
  const c = parseCard(text);
  const face = el("span", { class: `card ${c.red ? "red" : "black"} ${extra}`, title: text, "data-card": text });
  face.append(el("span", { class: "rank", text: c.rank }), el("span", { class: "suit", text: c.joker ? "JOKER" : c.suit }));
  if (c.copy) face.append(el("span", { class: "copy", text: "′" }));
  return face;
}

// One name per table everywhere: the host's id "t3" (or "3") and the night's table 3 are
// "Table 3"; any other id is shown as it is ("Table patio").
function tableName(id) {
  const m = /^t?0*(\d+)$/i.exec(String(id));
  return `Table ${m ? m[1] : id}`;
}

// Tables as people count them: t2 before t10 (like protocol.natural_key).
const byTable = new Intl.Collator("en", { numeric: true }).compare;

// A variant as players name it: "bid-euchre" is "Bid Euchre".
function variantName(id) {
  return id ? String(id).split("-").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ") : "–";
}

// The players with nothing on their tally (arrived for a game that never came, left before
// their first): listed apart from the standings, never ranked.
function showUnranked(v) {
  const apart = document.getElementById("unranked");
  if (!apart) return;
  const names = v.unranked || [];
  apart.hidden = names.length === 0;
  apart.textContent = names.length ? `Played no game tonight: ${names.join(", ")}` : "";
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function trumpName(trump) {
  if (!trump) return "–";
  if (trump === "NT") return "No trump";
  return SUITS[trump] ? `${SUITS[trump]} ${ {S: "spades", H: "hearts", D: "diamonds", C: "clubs"}[trump] }` : String(trump);
}

function seatName(state, seat) {
  return seat != null && state.seats && state.seats[seat] != null ? state.seats[seat] : "–";
}

function sideTricks(state, side) {
  const won = state.tricks_won || [];
  return (side.seats || []).reduce((sum, s) => sum + (won[s] || 0), 0);
}

// The club night's bell (the standings' "bell"): a banner at the top of the page until the
// players move.
function bellBanner(view) {
  let banner = document.getElementById("bell-banner");
  if (!banner) {
    banner = el("p", { id: "bell-banner", class: "alert bell", role: "alert",
      text: "The bell has rung: finish the hand in play, then wait for your next seat" });
    document.body.prepend(banner);
  }
  banner.hidden = !(view && view.bell);
}

// The badge says "live" only while the scoreboard reaches the broker: a night served from its
// files afterwards is not live.
let fromFiles = null;
function live(source, badgeId = "live") {
  const badge = document.getElementById(badgeId);
  if (!badge) return;
  fromFiles = fromFiles || fetch("/api/club").then((r) => r.json()).then((c) => c.broker === false).catch(() => false);
  source.onopen = () => fromFiles.then((files) => {
    badge.textContent = files ? "from the night's files" : "live";
    badge.className = files ? "live off files" : "live on";
  });
  source.onerror = () => { badge.textContent = "reconnecting…"; badge.className = "live off"; };
}

function phaseText(summary) {
  if (summary.night_over) return "final · the night is over";
  if (summary.game_over) {
    const side = (summary.sides || [])[summary.winner];
    return side ? `game over · ${side.name} win` : "game over";
  }
  return (summary.phase || "–").replace("_", " ");
}

// ---- club page -------------------------------------------------------------------------

function clubCard(t) {
  const card = el("a", { class: "table-card", href: `/table/${encodeURIComponent(t.table)}`, "data-table": t.table });
  card.append(el("h2", { text: tableName(t.table) }));
  card.append(el("p", { class: "variant", text: variantName(t.variant) }));
  const rows = el("table", { class: "sides" });
  (t.sides || []).forEach((side, i) => {
    rows.append(el("tr", {}, el("th", { text: side.name }), el("td", { class: "num", text: String((t.scores || [])[i] ?? 0) })));
  });
  card.append(rows);
  card.append(el("p", { class: "phase", "data-phase": t.phase || "", text: t.night_over ? phaseText(t) : `Hand ${t.hand_number ?? "–"} · ${phaseText(t)}` }));
  if (t.contract_text && !t.night_over) card.append(el("p", { class: "contract", text: t.contract_text }));
  if (t.to_act_name && !t.game_over && !t.night_over) card.append(el("p", { class: "turn", text: `${t.to_act_name} to act` }));
  for (const alert of t.alerts || []) card.append(el("p", { class: `alert ${alert.kind}`, text: alert.text }));
  return card;
}

function clubPage() {
  const tables = new Map();
  let filesOnly = false;
  const grid = document.getElementById("tables");
  const render = () => {
    const sorted = [...tables.values()].sort((a, b) => byTable(a.table, b.table));
    showChildren(grid, ...sorted.map(clubCard));
    document.getElementById("empty").hidden = tables.size > 0 || filesOnly;
  };
  fetch("/api/club").then((r) => r.json()).then((club) => {
    for (const t of club.tables) if (!tables.has(t.table)) tables.set(t.table, t);
    // served from the night's files (no broker): no live table will report; say nothing
    filesOnly = club.broker === false;
    if (club.host && club.host.club) {  // the club's name, from the tables' host's club file
      document.getElementById("club-title").textContent = club.host.club;
      document.title = `${club.host.club} · tricktable`;
    }
    render();
  });
  const source = new EventSource("/api/stream");
  live(source);
  source.addEventListener("table", (e) => {
    const t = JSON.parse(e.data);
    if (t.missing) tables.delete(t.table); else tables.set(t.table, t);
    render();
  });
}

// ---- table page ------------------------------------------------------------------------

function drawSeats(felt, state, trick, winner) {
  const n = (state.seats || []).length;
  const played = new Map((trick ? trick.cards : []).map((c) => [c.seat, c.card]));
  felt.querySelectorAll(".seat").forEach((node) => node.replaceChildren());
  const center = felt.querySelector(".trick");
  center.replaceChildren();
  for (let seat = 0; seat < n; seat++) {
    const pos = n === 4 ? POSITIONS[seat] : null;
    const node = pos ? felt.querySelector(`.seat[data-pos="${pos}"]`) : null;
    const box = node || el("div", { class: "seat extra" });
    box.dataset.seat = seat;
    box.classList.toggle("to-act", state.to_act === seat);
    box.classList.toggle("dealer", state.dealer === seat);
    box.classList.toggle("winner", winner === seat);
    const label = el("div", { class: "who" }, playerName(state.seats[seat], { class: "name" }));
    if (state.dealer === seat) label.append(el("span", { class: "chip", text: "D" }));
    if (state.contract && state.contract.seat === seat) label.append(el("span", { class: "chip maker", text: "maker" }));
    box.append(label);
    box.append(el("div", { class: "meta", text: plural((state.tricks_won || [])[seat] || 0, "trick") }));
    if (!node) center.append(box);
    const card = played.get(seat);
    const slot = el("div", { class: `slot ${pos || ""}`, "data-seat": seat });
    if (card) slot.append(cardFace(card, winner === seat ? "won" : ""));
    center.append(slot);
  }
}

function factsList(dl, pairs) {
  dl.replaceChildren();
  for (const [k, v] of pairs) dl.append(el("dt", { text: k }), el("dd", { text: v }));
}

function drawChart(svg, history, sides) {
  svg.replaceChildren();
  if (!history || history.length < 1) return;
  const all = history.flatMap((p) => p.scores);
  const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
  const w = 300, h = 120, pad = 6;
  const x = (i) => pad + (history.length < 2 ? 0 : (i * (w - 2 * pad)) / (history.length - 1));
  const y = (v) => h - pad - ((v - lo) * (h - 2 * pad)) / (hi - lo);
  const ns = "http://www.w3.org/2000/svg";
  const zero = document.createElementNS(ns, "line");
  Object.entries({ x1: 0, x2: w, y1: y(0), y2: y(0), class: "axis" }).forEach(([k, v]) => zero.setAttribute(k, v));
  svg.append(zero);
  (sides || []).forEach((side, s) => {
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", history.map((p, i) => `${x(i)},${y(p.scores[s] ?? 0)}`).join(" "));
    line.setAttribute("class", `series s${s}`);
    svg.append(line);
  });
}

// A score as people write it: "5 to −1" (a true minus sign), not "5 – -1".
function scoreText(scores) {
  return (scores || []).map((n) => (n < 0 ? `−${-n}` : String(n))).join(" to ");
}

function handLine(h, table) {
  const text = `#${h.hand} ${h.contract_text || "no contract"} · score ${scoreText(h.scores_after)}`;
  const link = el("a", { href: `/replay/${encodeURIComponent(table)}?game=${h.game}&hand=${h.hand}`, text });
  return el("li", { class: h.revokes ? "revoked" : "" }, link);
}

// Engine events come with their words (the host's tricktable.history.words, one place).
function eventText(ev, state) {
  const e = ev.event || {};
  const who = seatName(state, ev.seat != null ? ev.seat : e.seat);
  if (ev.kind === "refused") return `${who}: refused, ${ev.reason || ev.code}`;
  if (ev.kind === "control") return `admin: ${ev.reason || ev.code || "done"}`;
  if (ev.kind === "invalid") return `unreadable message: ${ev.reason}`;
  return ev.text || (e.type || ev.kind || "").replace(/_/g, " ");
}

function eventLine(ev, state) {
  const e = ev.event || {};
  return el("li", { class: `${ev.kind} ${e.type || ""}`, text: eventText(ev, state) });
}

// Every recorded hand of the table (the host's journal, when the scoreboard has it), game by
// game, each a link to its replay: during the night and after it.
async function nightHands(table) {
  const r = await fetch(`/api/table/${encodeURIComponent(table)}/hands`);
  if (!r.ok) return;
  const hands = (await r.json()).hands || [];
  // a club night's game number when the night knows it (a countdown's fresh games are one
  // game of the night), else the table's games in order
  const gameOf = (h) => h.night_game ?? h.game;
  const games = [...new Set(hands.map(gameOf))];
  const box = document.getElementById("night-hands");
  box.closest("section").hidden = !hands.length;
  if (hands.length) document.getElementById("idle").hidden = true;
  showChildren(box, ...games.map((game, i) => el("li", { "data-game": String(game) },
    el("h3", { text: `Game ${hands.some((h) => h.night_game != null) ? game : i + 1}` }),
    el("ol", { class: "hand-list" }, ...hands.filter((h) => gameOf(h) === game).map((h) => el("li", { class: h.revokes ? "revoked" : "" },
      el("a", { href: `/replay/${encodeURIComponent(table)}?game=${h.game}&hand=${h.hand}`,
        text: `Hand ${h.hand}: ${h.contract || h.contract_text || "no contract"} · score ${scoreText(h.scores_after)}` }),
      ...(h.corrected ? [el("span", { class: "corrected", text: ` · ${h.corrected}` })] : [])))))));
}

// A table's score (each side's tricks and points, the chart through the game) and this
// game's hands (a night's earlier games are on the night's list).
function drawScore(view, table) {
  const state = view.state;
  const sides = document.getElementById("sides");
  sides.replaceChildren(el("tr", {}, el("th", { text: "" }), el("th", { text: "Tricks" }), el("th", { text: "Score" })));
  (state.sides || []).forEach((side, i) => {
    sides.append(el("tr", { class: `s${i}` }, el("th", { text: side.name }),
      el("td", { class: "num tricks", text: String(sideTricks(state, side)) }),
      el("td", { class: "num score", text: String((state.scores || [])[i] ?? 0) })));
  });
  drawChart(document.getElementById("chart"), view.score_history, state.sides);
  const mine = view.last_hands.filter((h) => h.game === view.game);
  showChildren(document.getElementById("hands"), ...mine.map((h) => handLine(h, table)));
  // after the night the hands are on the night's list (every hand played here, each a replay)
  document.getElementById("hands").closest("section").hidden = Boolean(view.summary.night_over);
  document.querySelector(".table-page").classList.toggle("over", Boolean(view.summary.night_over));
}

function tablePage() {
  const table = decodeURIComponent(location.pathname.split("/").pop());
  document.getElementById("title").textContent = tableName(table);
  document.title = `tricktable · ${tableName(table)}`;
  const render = (view) => {
    const idle = view.missing || !view.state;
    // no game here now (the night is over, or served from its files): no live panel stands
    // empty; the hands played here are the page
    for (const panel of document.querySelectorAll("[data-live-panel]")) panel.hidden = idle;
    // the night is over: the table's final score and its hands, no seat "to act" in a game
    // nobody will play
    const over = !idle && Boolean(view.summary && view.summary.night_over);
    for (const panel of document.querySelectorAll("[data-play-panel]")) panel.hidden = idle || over;
    document.getElementById("idle").hidden = !idle || !document.querySelector(".night-hands").hidden;
    if (idle || over) { if (over) drawScore(view, table); return; }
    const state = view.state, summary = view.summary;
    document.body.dataset.phase = state.phase;
    const alerts = document.getElementById("alerts");
    alerts.replaceChildren(...summary.alerts.map((a) => el("p", { class: `alert ${a.kind}`, text: a.text })));
    // between tricks, the last one stays on the felt (its winner marked) until the next lead
    const current = state.trick || { cards: [] };
    const last = (state.tricks || [])[state.tricks.length - 1];
    const trick = current.cards.length || !last ? current : last;
    drawSeats(document.getElementById("felt"), state, trick, trick.winner);
    document.getElementById("felt").classList.toggle("previous", trick === last);
    const bids = (summary.bids || []).map((b) => `${seatName(state, b.seat)}: ${b.text}`).join(", ");
    const contract = summary.contract_text || "–";
    const variant = variantName(state.variant);
    factsList(document.getElementById("facts"), [
      ["Game", state.round != null ? `${variant} · game ${state.round} of the night` : variant],
      ["Hand", `${state.hand_number ?? "–"} · ${phaseText(summary)}`],
      ["Dealer", seatName(state, state.dealer)],
      ["To act", state.game_over ? "–" : seatName(state, state.to_act)],
      ["Bids", bids || "–"],
      ["Contract", contract],
      ["Trump", trumpName(state.trump)],
    ]);
    drawScore(view, table);
    // a public page: what the players did, not the host's admin answers
    showChildren(document.getElementById("events"), ...view.events.filter((ev) => ev.kind !== "control" && ev.kind !== "invalid")
      .slice().reverse().map((ev) => eventLine(ev, state)));
  };
  fetch(`/api/table/${encodeURIComponent(table)}`).then((r) => (r.ok ? r.json() : null)).then((view) => {
    render(view || { missing: true });
  });
  nightHands(table);
  setInterval(() => nightHands(table), 30000);
  fetch("/api/standings").then((r) => (r.ok ? r.json() : null)).then((night) => {
    if (!night) return;  // no club night: no bell
    bellBanner(night);
    // the night changed (a hand scored, a correction): its hands' list follows
    new EventSource("/api/stream?only=standings").addEventListener("standings", (e) => { bellBanner(JSON.parse(e.data)); nightHands(table); });
  });
  const source = new EventSource(`/api/stream?table=${encodeURIComponent(table)}`);
  live(source);
  source.addEventListener("view", (e) => render(JSON.parse(e.data)));
}

// ---- replay page -----------------------------------------------------------------------

// A hand from the replay API (history.replay's HandView.to_json): the hands, the bidding and
// contract in words, the tricks, and each revoke with its card and the card that proved it.
function revokeMarks(hand) {
  const marks = new Map(); // "trick:seat" -> classes
  const add = (trick, seat, cls) => {
    const key = `${trick}:${seat}`;
    marks.set(key, `${marks.get(key) || ""} ${cls}`.trim());
  };
  for (const r of hand.revokes || []) {
    add(r.trick, r.seat, "revoke");
    if (r.proof && r.how !== "hand") add(r.proven_in, r.seat, "proof");
  }
  return marks;
}

// The double-dummy analysis of each card played (tricktable.analysis, in hand.analysis):
// "trick:seat" -> {before, after, cost, side}; the cards that cost a trick are marked "costly".
function analysisOf(hand) {
  const plays = new Map();
  for (const p of (hand.analysis && hand.analysis.plays) || []) plays.set(`${p.trick}:${p.seat}`, p);
  return plays;
}

function ddNote(hand, p) {
  const side = (hand.sides || [])[p.side];
  const title = `double dummy: ${side ? side.name : "the side"} take ${p.before} tricks before this card, ${p.after} after`;
  const cost = p.cost > 0 ? `, cost ${plural(p.cost, "trick")}` : "";
  return el("span", { class: `dd${p.cost > 0 ? " costly" : ""}`, title, text: `DD ${p.before}→${p.after}${cost}` });
}

function handCards(hand, seat, step) {
  // the cards as dealt (or as the play showed them); those played by this step are dimmed,
  // the revoking card, the card that proved it and a card that cost a trick marked
  const playedBy = new Map();
  hand.tricks.forEach((t) => t.cards.forEach((c) => { if (c.seat === seat) playedBy.set(c.card, t.trick); }));
  const revoking = new Set((hand.revokes || []).filter((r) => r.seat === seat).map((r) => r.card));
  const proving = new Set((hand.revokes || []).filter((r) => r.seat === seat).map((r) => r.proof));
  const costly = new Set(((hand.analysis && hand.analysis.plays) || []).filter((p) => p.seat === seat && p.cost > 0).map((p) => p.card));
  return (hand.hands[seat] || []).map((card) => {
    const cls = [playedBy.has(card) && playedBy.get(card) <= step ? "played" : "",
      revoking.has(card) ? "revoke" : "", proving.has(card) ? "proof" : "", costly.has(card) ? "costly" : ""].join(" ");
    return cardFace(card, cls);
  });
}

function trickItem(hand, t, marks, href, current) {
  const dd = analysisOf(hand);
  const cards = t.cards.map((c) => {
    const p = dd.get(`${t.trick}:${c.seat}`);
    const cls = `${marks.get(`${t.trick}:${c.seat}`) || ""} ${t.winner === c.seat ? "won" : ""} ${p && p.cost > 0 ? "costly" : ""}`;
    return el("span", { class: "played-card" }, `${hand.seats[c.seat]} `, cardFace(c.card, cls), p ? ddNote(hand, p) : null);
  });
  const label = `Trick ${t.trick}: ${hand.seats[t.leader]} leads`;
  const won = t.winner == null ? "unfinished" : `${hand.seats[t.winner]} wins`;
  const head = href ? el("a", { href, text: label }) : el("span", { text: label });
  const item = el("li", { "data-trick": t.trick }, head, " ", ...cards, ` · ${won}`);
  if (current) item.setAttribute("aria-current", "step");
  return item;
}

// The analysis panel: why there is none, or the cards that cost a trick in words and what
// each trump would have made for each declarer (the declarer's side's tricks, double dummy).
function showAnalysis(hand) {
  const a = hand.analysis;
  const note = document.getElementById("analysis-note");
  const costly = document.getElementById("costly");
  const table = document.getElementById("dd-contracts");
  const usable = a && a.plays;
  note.textContent = usable ? "" : !a ? "No analysis for this hand."
    : a.unavailable || `Not analysed: ${a.unknown}.`;
  note.hidden = Boolean(usable);
  document.getElementById("analysis-legend").hidden = !usable;
  costly.replaceChildren(...(usable ? a.plays : []).filter((p) => p.cost > 0).map((p) => el("li", {
    text: `Trick ${p.trick}: ${hand.seats[p.seat]} ${cardLabel(p.card)} cost ${plural(p.cost, "trick")} (${p.before} → ${p.after})${p.revoke ? ", a revoke" : ""}` })));
  if (usable && !costly.children.length) costly.append(el("li", { text: "No card cost a trick." }));
  table.replaceChildren();
  if (!usable || !a.contracts.length) return;
  const seats = [...new Set(a.contracts.map((r) => r.declarer))];
  const c = a.contract || {};
  table.append(el("caption", { text: `What each trump would have made: the declaring side's tricks double dummy by declarer (✓ reaches the ${c.need ?? "?"} the contract needed)` }),
    el("tr", {}, el("th", { text: "Trump", scope: "col" }), ...seats.map((s) => el("th", { text: hand.seats[s], scope: "col" }))));
  for (const trump of [...new Set(a.contracts.map((r) => r.trump))]) {
    const row = el("tr", { "data-trump": trump }, el("th", { text: trumpName(trump), scope: "row" }));
    for (const s of seats) {
      const r = a.contracts.find((x) => x.trump === trump && x.declarer === s);
      const played = c.trump === trump && c.seat === s;
      row.append(el("td", { class: `num${played ? " played" : ""}${r && r.made ? " made" : ""}`,
        text: r ? `${r.tricks[a.sides.findIndex((side) => side.includes(s))]}${r.made ? " ✓" : ""}${played ? " (played)" : ""}` : "–" }));
    }
    table.append(row);
  }
}

// Par under the bidding (tricktable.analysis.par, in hand.analysis.par): the contract the
// auction ends in with every hand known, and each side's best contract at each bid.
function showPar(hand) {
  const a = hand.analysis;
  const par = a && a.par;
  const section = document.getElementById("par");
  const table = document.getElementById("par-table");
  section.hidden = !par;
  table.replaceChildren();
  if (!par) return;
  const names = (hand.sides || []).map((side) => side.name);
  const line = document.getElementById("par-line");
  if (par.none) {
    const tricks = par.tricks ? ` Double dummy: ${names.map((n, i) => `${n} ${par.tricks[i]}`).join(", ")}.` : "";
    line.textContent = `No par: ${par.none}.${tricks}`;
    return;
  }
  line.textContent = `Par: ${par.text}.`;
  const best = par.par;
  table.append(el("caption", { text: "Each side's best contract at each bid: declarer, trump, tricks of each side double dummy, and the score of each side (par: the bid and side of the par contract)" }),
    el("tr", {}, el("th", { text: "Bid", scope: "col" }), ...names.map((n) => el("th", { text: n, scope: "col" }))));
  for (const row of par.by_bid) {
    table.append(el("tr", { "data-bid": row.bid }, el("th", { text: row.text, scope: "row" }),
      ...row.sides.map((r, i) => {
        // the par cell shows the par contract itself, as the par line says it (another
        // contract of the side at that bid may score the same)
        const isPar = Boolean(r && best && row.bid === best.bid && hand.sides[i].seats.includes(best.seat));
        if (isPar) r = best;
        return el("td", { class: `num${isPar ? " par" : ""}`,
          text: r ? `${hand.seats[r.seat]} ${SUITS[r.trump] || trumpName(r.trump)} ${r.tricks.join("-")} (${r.score.map((d) => (d > 0 ? `+${d}` : String(d))).join("/")})${isPar ? " par" : ""}` : "–" });
      })));
  }
}

// The single-dummy estimate (tricktable.analysis.decisions, in hand.analysis.decisions): at
// each decision the choices the player had, best first, with the points each was worth to
// their side on average over deals of the cards they could not see; the one played marked; its
// cost in points and in words ("why"). An estimate, and the panel says so (docs/analysis.md,
// "Single dummy: was that the right card?"). Text carries every mark, not colour alone.
const SD_NOTICEABLE = 0.05; // a cost under this shows as 0.0 points: not a cost at all

function sdPoints(x) {
  const r = Math.round(x * 10) / 10;
  return `${r > 0 ? "+" : ""}${(r === 0 ? 0 : r).toFixed(1)}`;
}

function sdSpread(d, ci) {
  if (d.exact) return "exact";
  return ci ? `±${(Math.abs(ci[1] - ci[0]) / 2).toFixed(1)}` : "";
}

// A choice as the analysis labels it ("pass", "order up", "bid 4", "name hearts",
// "discard 9C", a card "JH"), its cards drawn with their suit signs.
function sdChoiceLabel(d, choice) {
  if (d.kind === "card") return cardLabel(choice);
  return String(choice).replace(/^discard (\S+)$/, (_, card) => `discard ${cardLabel(card)}`);
}

function sdIsPlayed(d, c) {
  return c.played != null ? Boolean(c.played) : c.choice === d.played;
}

function sdPlayedLabel(d) {
  return sdChoiceLabel(d, d.played);
}

function sdWhere(d) {
  return d.trick != null ? `Trick ${d.trick}` : d.kind === "discard" ? "Before the play" : "Bidding";
}

// Who decided: the name the replay shows at that seat (the night's), else the analysis's.
function sdWho(hand, d) {
  return (hand.seats || [])[d.seat] ?? d.player ?? "–";
}

function sdHeading(hand, d) {
  const who = sdWho(hand, d);
  return `${sdWhere(d)} · ${who}${d.kind === "card" ? " played " : ": "}${sdPlayedLabel(d)}`;
}

function sdCostText(d) {
  if (d.cost < SD_NOTICEABLE) return "The best choice, or as good as the best as far as the estimate can tell.";
  const spread = sdSpread(d, d.cost_ci95);
  return `Cost ${d.cost.toFixed(1)} points on average${spread ? ` (${spread})` : ""} against the best choice.`;
}

// The step where decision `d` is shown: its trick, or the first trick for the bidding.
function sdStep(d) {
  return d.trick != null ? d.trick : 1;
}

function sdDecision(hand, d, index, focused) {
  const head = el("h4", { text: sdHeading(hand, d) });
  const cost = el("p", { class: `sd-cost${d.cost >= SD_NOTICEABLE ? " costly" : ""}`, text: sdCostText(d) });
  const why = d.why ? el("p", { class: "sd-why", text: d.why }) : null;
  const table = el("table", { class: "sd-choices" },
    el("caption", { text: `Choices, best first: expected points for ${sdWho(hand, d)}'s side (estimate)` }),
    el("tr", {}, el("th", { scope: "col", text: "Choice" }), el("th", { scope: "col", text: "Expected points" }),
      el("th", { scope: "col", text: "Tricks (average)" }), el("th", { scope: "col", text: "Deals tried" })));
  (d.choices || []).forEach((c, rank) => {
    const played = sdIsPlayed(d, c);
    const spread = sdSpread(d, c.points_ci95);
    const label = `${rank === 0 ? "best: " : ""}${sdChoiceLabel(d, c.choice)}${played ? " (played)" : ""}`;
    table.append(el("tr", { class: played ? "played" : "", "data-choice": c.choice },
      el("th", { scope: "row", text: label }),
      el("td", { class: "sd-num", text: `${sdPoints(c.points)} points${spread ? ` (${spread})` : ""}` }),
      el("td", { class: "sd-num", text: c.tricks.toFixed(1) }),
      el("td", { class: "sd-num", text: String(c.samples) })));
  });
  const box = el("article", { class: "sd-decision", "data-decision": index, "data-seat": d.seat, "data-kind": d.kind },
    head, cost, why, table);
  if (focused) box.setAttribute("aria-current", "true");
  return box;
}

// The panel: why there is no estimate, or the hand's costliest decisions (each a link to its
// step) and the decisions at this step.
function showSingleDummy(hand, step, link, focus) {
  const a = hand.analysis;
  const sd = a && a.single_dummy;
  const decisions = (a && a.decisions) || null;
  const note = document.getElementById("sd-note");
  const body = document.getElementById("sd-hand");
  const section = document.getElementById("sd");
  section.dataset.state = decisions ? "ready" : sd && sd.pending ? "pending" : "none";
  if (!decisions) {
    note.textContent = !a ? "No single-dummy estimate for this hand: it has no analysis."
      : a.unavailable ? `No single-dummy estimate: ${a.unavailable}.`
        : a.unknown ? `No single-dummy estimate: ${a.unknown}.`
          : sd && sd.pending ? `Working out the single-dummy estimate: ${sd.pending}. It shows here when it is ready.`
            : sd && sd.unavailable ? `No single-dummy estimate: ${sd.unavailable}.`
              : "No single-dummy estimate for this hand.";
    body.hidden = true;
    return;
  }
  const how = sd && sd.samples ? `${sd.method === "exact" ? "worked out exactly" : `${sd.samples} deals of the unseen cards per decision`}` : "";
  note.textContent = `An estimate${how ? ` (${how})` : ""}: expected points are averages, ± the margin of error (95%).`;
  body.hidden = false;
  const costly = decisions.map((d, i) => [d, i]).filter(([d]) => d.cost >= SD_NOTICEABLE)
    .sort(([x], [y]) => y.cost - x.cost).slice(0, 5);
  document.getElementById("sd-costly").replaceChildren(...(costly.length ? costly.map(([d, i]) => {
    const text = `${sdHeading(hand, d)}, cost ${d.cost.toFixed(1)} points${sdSpread(d, d.cost_ci95) ? ` (${sdSpread(d, d.cost_ci95)})` : ""}`;
    const href = link(sdStep(d));
    return el("li", {}, href ? el("a", { href: `${href}&decision=${i}`, "data-decision": i, text }) : el("span", { text }));
  }) : [el("li", { text: "No decision cost a noticeable number of points." })]));
  const here = decisions.map((d, i) => [d, i]).filter(([d]) => sdStep(d) === step);
  document.getElementById("sd-step-title").textContent = step === 1
    ? "Decisions in the bidding and trick 1" : `Decisions in trick ${step}`;
  document.getElementById("sd-decisions").replaceChildren(...(here.length
    ? here.map(([d, i]) => sdDecision(hand, d, i, i === focus))
    : [el("p", { class: "empty", text: "No decision was estimated at this step (a card with no other choice is not a decision)." })]));
}

// A hand the scoreboard only saw live (no journal): no dealt hands, revokes without cards.
function seenLive(hand) {
  const played = (seat) => hand.tricks.flatMap((t) => t.cards.filter((c) => c.seat === seat).map((c) => c.card));
  return { ...hand, hands: hand.seats.map((_, seat) => played(seat)), hands_from: "play",
    tricks: hand.tricks.map((t, i) => ({ ...t, trick: i + 1 })),
    revokes: (hand.revokes || []).map((r) => ({ seat: r.seat, trick: r.trick,
      text: `${seatName(hand, r.seat)} revoked in trick ${r.trick} (${r.suit})` })) };
}

async function replayPage() {
  const table = decodeURIComponent(location.pathname.split("/").pop());
  const params = new URLSearchParams(location.search);
  document.getElementById("title").textContent = `Replay · ${tableName(table)}`;
  const pick = document.getElementById("hand-pick");
  let uploaded = null; // the hands of an opened file, when one is shown
  let hand = null, step = 0;
  let focus = params.get("decision") != null ? Number(params.get("decision")) : null; // a decision linked to
  const link = (t) => (uploaded ? null
    : `/replay/${encodeURIComponent(table)}?game=${hand.game}&hand=${hand.hand}&trick=${t}`);
  const show = () => {
    const n = hand.tricks.length;
    step = Math.max(n ? 1 : 0, Math.min(step, n));
    const trick = n ? hand.tricks[step - 1] : null;
    const won = hand.seats.map(() => 0);
    hand.tricks.slice(0, step).forEach((t) => { if (t.winner != null) won[t.winner] += 1; });
    const state = { seats: hand.seats, dealer: hand.dealer, contract: hand.contract, tricks_won: won, to_act: null };
    drawSeats(document.getElementById("felt"), state, trick, trick && trick.winner);
    const marks = revokeMarks(hand);
    const dd = analysisOf(hand);
    if (trick) {
      for (const c of trick.cards) {
        const cls = [marks.get(`${trick.trick}:${c.seat}`), (dd.get(`${trick.trick}:${c.seat}`) || {}).cost > 0 ? "costly" : ""].join(" ").trim();
        const face = document.querySelector(`#felt .slot[data-seat="${c.seat}"] .card`);
        if (cls && face) face.classList.add(...cls.split(" "));
      }
    }
    document.getElementById("step").textContent = n ? `Trick ${step} of ${n}` : "no tricks";
    document.body.dataset.step = String(step);
    if (!uploaded && n) history.replaceState(null, "", link(step));
    const sides = (hand.sides || []).map((side) => `${side.name} ${side.seats.reduce((s, x) => s + won[x], 0)}`);
    const deltas = (hand.deltas || []).map((d) => (d > 0 ? `+${d}` : String(d))).join(" / ");
    factsList(document.getElementById("facts"), [
      ["Hand", `${hand.night_game != null ? `game ${hand.night_game} of the night` : `game ${hand.game}`}, hand ${hand.hand} · ${seatName(hand, hand.dealer)} deals`],
      ...(hand.up_card ? [["Up-card", cardLabel(hand.up_card)]] : []), // only where the game turns one
      ["Bidding", (hand.bids || []).map((b) => `${seatName(hand, b.seat)}: ${b.text}`).join(", ") || "–"],
      ["Contract", hand.contract_text || "–"],
      ["Trump", hand.trump_text || "–"],
      ["Led by", trick ? seatName(hand, trick.leader) : "–"],
      ["Won by", trick && trick.winner != null ? seatName(hand, trick.winner) : "–"],
      ["Tricks", sides.join(" · ") || "–"],
      ["Result", hand.result || "–"],
      ["Score", `${scoreText(hand.scores_before)}, then ${scoreText(hand.scores_after)}${deltas ? ` (${deltas})` : ""}`],
      ...(hand.corrected ? [["Director", hand.corrected]] : []),
    ]);
    const from = { deal: "as dealt", scan: "as scanned", play: "as the play showed them" }[hand.hands_from] || "";
    document.getElementById("hands-title").textContent = `The hands${from ? ` (${from})` : ""}`;
    document.getElementById("deal-hands").replaceChildren(...hand.seats.map((name, seat) =>
      el("tr", { "data-seat": seat }, el("th", { text: (hand.sitting_out || []).includes(seat) ? `${name} (sits out)` : name }),
        el("td", {}, ...handCards(hand, seat, step)))));
    document.getElementById("trick-list").replaceChildren(...hand.tricks.map((t) =>
      trickItem(hand, t, marks, link(t.trick), t.trick === step)));
    document.getElementById("revokes").replaceChildren(...(hand.revokes || []).map((r) =>
      el("li", { text: `${r.text}: ${r.card ? cardLabel(r.card) : "?"} played${r.proof ? `; the proof: ${cardLabel(r.proof)}` : ""}` })));
    showAnalysis(hand);
    showPar(hand);
    showSingleDummy(hand, step, link, focus);
    if (focus != null) {
      const box = document.querySelector(`#sd-decisions [data-decision="${focus}"]`);
      if (box) box.scrollIntoView({ block: "center" });
    }
  };
  const fill = (list) => {
    pick.replaceChildren(...list.map((h) => el("option", { value: `${h.game}/${h.hand}`,
      text: `Game ${h.night_game ?? h.game}, hand ${h.hand} (${plural(h.tricks.length ?? h.tricks, "trick")})` })));
  };
  const open = async (to) => {
    if (!pick.value) return;
    const [game, number] = pick.value.split("/").map(Number);
    hand = uploaded ? uploaded.find((h) => h.game === game && h.hand === number)
      : await (await fetch(`/api/table/${encodeURIComponent(table)}/hands/${game}/${number}`)).json();
    if (!hand.hands_from) hand = seenLive(hand);
    step = to;
    show();
    awaitEstimate(hand);
  };
  // The single-dummy estimate is worked out in the background: while it is, ask again now
  // and then, and show it once it is there (if the same hand is still on show).
  const awaitEstimate = (shown) => {
    const sd = shown.analysis && shown.analysis.single_dummy;
    if (uploaded || !sd || !sd.pending) return;
    setTimeout(async () => {
      if (hand !== shown) return;
      const r = await fetch(`/api/table/${encodeURIComponent(table)}/hands/${shown.game}/${shown.hand}`);
      if (!r.ok || hand !== shown) return;
      hand = { ...shown, analysis: (await r.json()).analysis };
      show();
      awaitEstimate(hand);
    }, 2000);
  };
  const list = (await (await fetch(`/api/table/${encodeURIComponent(table)}/hands`)).json()).hands;
  fill(list.map((h) => ({ game: h.game, night_game: h.night_game, hand: h.hand, tricks: { length: h.tricks } })));
  const wanted = params.get("game") && params.get("hand") ? `${params.get("game")}/${params.get("hand")}` : null;
  if (wanted && list.some((h) => `${h.game}/${h.hand}` === wanted)) pick.value = wanted;
  pick.addEventListener("change", () => { focus = null; open(1); });
  document.getElementById("history-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const problem = document.getElementById("file-error");
    const r = await fetch(`/api/replay/file?name=${encodeURIComponent(file.name)}`, { method: "POST", body: await file.text() });
    const body = await r.json();
    problem.hidden = r.ok;
    if (!r.ok) { problem.textContent = body.error; return; }
    uploaded = body.hands.filter((h) => h.tricks.length);
    document.getElementById("title").textContent = `Replay · ${body.name}`;
    fill(uploaded);
    await open(1);
  });
  const go = (to) => { if (hand) { step = to(step); focus = null; show(); } };
  document.getElementById("first").onclick = () => go(() => 1);
  document.getElementById("prev").onclick = () => go((s) => s - 1);
  document.getElementById("next").onclick = () => go((s) => s + 1);
  document.getElementById("last").onclick = () => go(() => Infinity);
  const keys = { ArrowLeft: (s) => s - 1, ArrowRight: (s) => s + 1, Home: () => 1, End: () => Infinity };
  document.addEventListener("keydown", (e) => {
    if (keys[e.key] && !(e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement)) {
      e.preventDefault();
      go(keys[e.key]);
    }
  });
  await open(Number(params.get("trick")) || 1);
}

// Pages drawn here; /standings is drawn by standings.js, /tv by tv.js, /results by
// results.js and the statistics pages by stats.js, which use el(), live(), tableName(),
// byTable(), playerName() and playersReady above. Each starts once the player pages are known.
const PAGES = { club: clubPage, table: tablePage, replay: replayPage };
const page = PAGES[document.body.dataset.page];
if (page) playersReady.then(page);
