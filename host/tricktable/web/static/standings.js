// tricktable scoreboard: the club night's standings and seating (club page section and
// /standings), kept live by the "standings" server-sent event. Loaded after app.js, whose
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
    card.append(list, el("p", { class: "seat-score", text: `A ${t.score[0]} · B ${t.score[1]} · ${t.hands} hand${t.hands === 1 ? "" : "s"}` }));
    return card;
  }

  function render(v) {
    const section = document.getElementById("night");
    section.hidden = false;
    bellBanner(v);
    section.dataset.games = String(v.games_played);
    document.getElementById("night-status").textContent = status(v);
    const error = document.getElementById("night-error");
    error.hidden = !v.error;
    error.textContent = v.error ? `The night file could not be read; showing the last good standings. ${v.error}` : "";
    showChildren(document.getElementById("standings-body"), ...v.standings.map(row));
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

  playersReady.then(start);
})();
