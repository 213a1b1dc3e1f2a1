// tricktable scoreboard: the club night's standings and seating (club page section and
// /standings), kept live by the "standings" server-sent event. On the club page the seating by
// name comes first (where do I sit?); on a phone the standings come a page at a time. Loaded after app.js, whose
// el(), live() and tableName() it uses. No framework, no build step.
"use strict";

(() => {
  const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };

  function status(v) {
    if (v.finished) return `final · ${v.games_played} of ${v.rounds} games`;
    if (!v.rounds) return "";
    return `game ${v.round} of ${v.rounds} · ${v.hands_left} hand${v.hands_left === 1 ? "" : "s"} to the bell`;
  }

  function row(s) {
    const marks = [];
    if (s.high) marks.push(el("span", { class: "mark high", text: "HIGH" }));
    if (s.low) marks.push(el("span", { class: "mark low", text: "LOW" }));
    const tr = el("tr", { "data-player": s.name, class: s.high ? "high" : s.low ? "low" : "" });
    tr.append(el("td", { class: "rank", text: String(s.rank) }), el("th", { scope: "row", class: "player" }, playerName(s.name)),
      el("td", { class: "n total", text: String(s.total) }), el("td", { class: "n won", text: String(s.won) }),
      el("td", { class: "marks" }, ...marks));
    return tr;
  }

  function seatCard(t) {
    const card = el("div", { class: "seat-card", "data-table": String(t.table) });
    card.append(el("h3", { text: t.table === 1 ? `${tableName(1)} · head` : tableName(t.table) }));
    const list = el("dl");
    for (const seat of ["N", "E", "S", "W"]) {
      list.append(el("dt", { text: SEAT_NAMES[seat] }), el("dd", { text: t.seats[seat] }));
    }
    card.append(list, el("p", { class: "seat-score", text: `N/S ${t.score[0]} · E/W ${t.score[1]} · ${t.hands} hand${t.hands === 1 ? "" : "s"}` }));
    return card;
  }

  const PER_PAGE = 25; // standings rows a phone shows at once
  const phone = matchMedia("(max-width: 700px)");
  let last = null;

  function page() {
    const m = /^#p(\d+)$/.exec(location.hash);
    return m ? Number(m[1]) : 1;
  }

  // On a phone, one page of the standings and links to the others (links, not buttons: a
  // public page has nothing to press but links).
  function paged(rows) {
    const pager = document.getElementById("pager");
    if (!phone.matches || rows.length <= PER_PAGE) { pager.replaceChildren(); return rows; }
    const pages = Math.ceil(rows.length / PER_PAGE), at = Math.min(page(), pages);
    showChildren(pager, el("span", { text: `Page ${at} of ${pages}: ` }), ...Array.from({ length: pages }, (_, i) => el("a", {
      href: `#p${i + 1}`, text: `${i * PER_PAGE + 1}–${Math.min(rows.length, (i + 1) * PER_PAGE)}`, ...(i + 1 === at ? { "aria-current": "page" } : {}) })));
    return rows.slice((at - 1) * PER_PAGE, at * PER_PAGE);
  }

  // Everyone by name with their table and seat in this game (the club page).
  function seatNames(v) {
    const box = document.getElementById("seat-names");
    if (!box) return;
    const rows = [];
    for (const t of v.seating) for (const [seat, name] of Object.entries(t.seats)) rows.push([name, `${tableName(t.table)} · ${SEAT_NAMES[seat]}`]);
    for (const name of v.bench || []) rows.push([name, "sits out this game"]);
    rows.sort((a, b) => a[0].localeCompare(b[0], undefined, { sensitivity: "base" }));
    document.getElementById("seat-names-title").hidden = rows.length === 0;
    showChildren(box, ...rows.map(([name, where]) => el("li", { "data-player": name }, el("span", { class: "who", text: name }),
      el("span", { class: "where", text: where }))));
  }

  function render(v) {
    last = v;
    const section = document.getElementById("night");
    section.hidden = false;
    bellBanner(v);
    section.dataset.games = String(v.games_played);
    document.getElementById("night-status").textContent = status(v);
    const error = document.getElementById("night-error");
    error.hidden = !v.error;
    error.textContent = v.error ? `The night file could not be read; showing the last good standings. ${v.error}` : "";
    seatNames(v);
    showChildren(document.getElementById("standings-body"), ...paged(v.standings).map(row));
    showUnranked(v);
    document.getElementById("seating-title").hidden = v.seating.length === 0;
    showChildren(document.getElementById("seating"), ...v.seating.map(seatCard));
  }

  function start() {
    const badge = document.getElementById("night-live");
    fetch("/api/standings").then((r) => (r.ok ? r.json() : null)).then((v) => {
      if (!v) {
        if (badge) { badge.textContent = "no club night"; badge.className = "live off"; }
        return;
      }
      render(v);
      const source = new EventSource("/api/stream?only=standings");
      live(source, "night-live");
      source.addEventListener("standings", (e) => render(JSON.parse(e.data)));
    });
  }

  window.addEventListener("hashchange", () => { if (last) render(last); });
  phone.addEventListener("change", () => { if (last) render(last); });
  playersReady.then(start);
})();
