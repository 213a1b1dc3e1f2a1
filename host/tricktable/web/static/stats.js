// tricktable statistics pages: the leaderboard, a player, a season. Each page fetches its JSON
// and follows /api/stats/stream: when the club database changes, the page fetches again.
// Loaded after app.js (el() is there).
"use strict";

const num = (value) => el("td", { class: "num", text: value == null ? "–" : String(value) });
const who = (name, id) => (id == null ? el("td", { text: name })
  : el("td", {}, el("a", { href: `/player/${encodeURIComponent(id)}`, text: name })));
const signed = (n) => (n > 0 ? `+${n}` : String(n));

function follow(load) {
  const live = document.getElementById("live");
  const source = new EventSource("/api/stats/stream");
  source.addEventListener("changed", () => load().then(() => {
    document.body.dataset.serial = String(Number(document.body.dataset.serial || 0) + 1);
  }));
  source.onopen = () => { live.textContent = "live"; live.className = "live on"; };
  source.onerror = () => { live.textContent = "offline"; live.className = "live off"; };
}

async function getJSON(url) {
  const r = await fetch(url);
  return { ok: r.ok, body: await r.json() };
}

async function leaderboardPage() {
  const load = async () => {
    const { body } = await getJSON("/api/leaderboard");
    document.querySelector("#leaderboard tbody").replaceChildren(...body.players.map((p) =>
      el("tr", {}, num(p.place), who(p.name, p.player), num(p.rating.toFixed(2)),
        num(p.mu.toFixed(2)), num(p.sigma.toFixed(2)), num(p.games), num(p.hands),
        num(p.points_per_hand == null ? null : p.points_per_hand.toFixed(2)))));
    const seasons = (await getJSON("/api/seasons")).body.seasons;
    document.getElementById("seasons").replaceChildren(...seasons.map((s) =>
      el("li", {}, el("a", { href: `/season/${s.season}`, text: s.name }),
        ` · ${s.ladder_words} · ${plural(s.nights, "night")}`)));
    document.body.dataset.ready = "yes";
  };
  await load();
  follow(load);
}

// A number with a true minus sign (−1.3), as people write it.
function signedNumber(n) {
  return n < 0 ? `−${(-n).toFixed(1)}` : n.toFixed(1);
}

function ratingChart(box, ratings) {
  if (!ratings.length) { box.replaceChildren(el("p", { class: "empty", text: "Not rated yet: a night must be closed." })); return; }
  const W = 800, H = 260, pad = 40;
  const lo = Math.min(...ratings.map((r) => r.mu - r.sigma)), hi = Math.max(...ratings.map((r) => r.mu + r.sigma));
  const x = (i) => pad + (ratings.length === 1 ? (W - 2 * pad) / 2 : (i * (W - 2 * pad)) / (ratings.length - 1));
  const y = (v) => H - pad - ((v - lo) / (hi - lo || 1)) * (H - 2 * pad);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const add = (tag, attrs) => { const n = document.createElementNS(ns, tag); for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v); svg.append(n); return n; };
  const upper = ratings.map((r, i) => `${x(i)},${y(r.mu + r.sigma)}`);
  const lower = ratings.map((r, i) => `${x(i)},${y(r.mu - r.sigma)}`).reverse();
  add("polygon", { class: "band", points: [...upper, ...lower].join(" ") });
  add("polyline", { class: "mu", points: ratings.map((r, i) => `${x(i)},${y(r.mu)}`).join(" ") });
  ratings.forEach((r, i) => {
    add("circle", { class: "dot", cx: x(i), cy: y(r.mu), r: 5 }).append(Object.assign(document.createElementNS(ns, "title"), { textContent: `${r.name}: skill ${r.mu.toFixed(1)}, give or take ${r.sigma.toFixed(1)}` }));
  });
  add("text", { x: pad, y: 28 }).textContent = `skill ${hi.toFixed(1)}`;
  add("text", { x: pad, y: H - 8 }).textContent = `skill ${lo.toFixed(1)}`;
  box.replaceChildren(svg);
}

async function playerPage() {
  const id = location.pathname.split("/").pop(); // the name's key, as the URL spells it
  const load = async () => {
    const { ok, body } = await getJSON(`/api/player/${id}`);
    const missing = document.getElementById("missing");
    missing.hidden = ok;
    if (!ok) { missing.textContent = body.error; document.body.dataset.ready = "yes"; return; }
    document.getElementById("title").textContent = body.name + (body.nickname ? ` “${body.nickname}”` : "");
    const last = body.ratings[body.ratings.length - 1];
    document.getElementById("rating-now").textContent = last
      ? `Rating ${signedNumber(last.ordinal)} after ${plural(last.games, "game")}: skill ${last.mu.toFixed(1)}, give or take ${last.sigma.toFixed(1)} (the chart below). The rating is the skill less three times the give-or-take, a cautious figure: it rises as you win and as the club sees more of your games`
      : "";
    ratingChart(document.getElementById("rating-chart"), body.ratings);
    document.getElementById("families").replaceChildren(...body.families.map((f) =>
      el("section", { class: "panel family", "data-family": f.family }, el("h2", { text: f.title }),
        el("dl", {}, ...f.lines.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })])))));
    document.querySelector("#partners tbody").replaceChildren(...body.partners.map((p) =>
      el("tr", {}, who(p.name, p.partner), el("td", { text: p.family }), num(p.hands), num(p.points),
        num(p.hands ? (p.points / p.hands).toFixed(2) : null))));
    document.querySelector("#recent tbody").replaceChildren(...body.recent.map((h) => {
      const link = `/replay/${h.night}~${encodeURIComponent(h.table)}?game=${h.game}&hand=${h.hand}`;
      const c = h.contract;
      return el("tr", {}, el("td", { text: h.night_name }), el("td", { text: h.table }),
        el("td", {}, el("a", { href: link, class: "replay-link", text: `game ${h.game}, hand ${h.hand}` })),
        el("td", { text: c ? `${c.bid}${c.trump ? " " + c.trump : ""}${c.alone ? " alone" : ""}` : "–" }),
        num(signed(h.points)), el("td", { text: h.detail }));
    }));
    document.querySelector("#nights tbody").replaceChildren(...body.nights.map((n) =>
      el("tr", {}, el("td", { text: n.name }), el("td", { text: n.played || "–" }), num(n.hands),
        num(n.points), num(n.won))));
    document.body.dataset.ready = "yes";
  };
  await load();
  costlyDecisions(id);
  follow(load);
}

// The player's costliest decisions of their latest night, as the single-dummy estimate has
// them (/api/player/{id}/decisions): each links to its step of the replay. Games not yet
// estimated are being worked out on the host: ask again until they are.
async function costlyDecisions(id) {
  const { ok, body } = await getJSON(`/api/player/${id}/decisions`);
  const note = document.getElementById("costly-note");
  const list = document.getElementById("costly-decisions");
  if (!ok || body.night == null) {
    note.textContent = "No night played yet.";
    list.replaceChildren();
    document.body.dataset.decisions = "none";
    return;
  }
  const why = Object.entries(body.unavailable || {}).map(([w, n]) => `${plural(n, "hand")}: ${w}`);
  note.textContent = [`${body.night_name}: an estimate (single dummy: the unseen cards dealt many ways, each played out; the replay page says more), from ${body.estimated} of the ${plural(body.hands, "hand")} played.`,
    body.pending ? `${plural(body.pending, "hand")} still being worked out.` : "",
    why.length ? `Not estimated: ${why.join("; ")}.` : ""].filter(Boolean).join(" ");
  list.replaceChildren(...(body.decisions.length ? body.decisions.map((d) => {
    const where = `${tableName(d.table)}, game ${d.game}, hand ${d.hand}${d.played_out ? "" : " (passed out)"}, ${sdWhere(d).toLowerCase()}`;
    const played = sdChoiceLabel(d, d.played);
    const best = d.best != null ? sdChoiceLabel(d, d.best) : "?";
    const spread = sdSpread(d, d.cost_ci95);
    const href = `/replay/${body.night}~${encodeURIComponent(d.table)}?game=${d.game}&hand=${d.hand}&trick=${sdStep(d)}&decision=${d.decision}`;
    const text = `${where}: ${played}, where ${best} was best`;
    return el("li", {}, d.played_out ? el("a", { href, class: "decision-link", text }) : el("span", { text }),
      el("span", { class: "sd-cost costly", text: `: cost ${d.cost.toFixed(1)} points${spread ? ` (${spread})` : ""}` }),
      d.why ? el("p", { class: "sd-why", text: d.why }) : null);
  }) : [el("li", { text: body.estimated ? "No decision cost a noticeable number of points."
    : body.pending ? "None estimated yet." : "None estimated." })]));
  document.body.dataset.decisions = body.pending ? "pending" : "ready";
  if (body.pending) setTimeout(() => costlyDecisions(id), 3000);
}

async function seasonPage() {
  const id = Number(location.pathname.split("/").pop());
  document.getElementById("report").href = `/season/${id}/report`;
  const load = async () => {
    const { ok, body } = await getJSON(`/api/season/${id}`);
    const missing = document.getElementById("missing");
    missing.hidden = ok;
    if (!ok) { missing.textContent = body.error; document.body.dataset.ready = "yes"; return; }
    document.getElementById("title").textContent = body.name;
    document.getElementById("ladder-words").textContent = `Ladder: ${body.ladder_words}`;
    document.querySelector("#ladder tbody").replaceChildren(...body.rows.map((r) =>
      el("tr", {}, num(r.place), who(r.name, r.player), num(r.value), num(r.won), num(r.total), num(r.nights))));
    document.getElementById("season-nights").replaceChildren(...body.nights.map((n) =>
      el("li", { text: `${n.name} (${n.played || "date unknown"})` })));
    document.body.dataset.ready = "yes";
  };
  await load();
  follow(load);
}

const STATS_PAGES = { leaderboard: leaderboardPage, player: playerPage, season: seasonPage };
const statsPage = STATS_PAGES[document.body.dataset.page];
if (statsPage) statsPage();
