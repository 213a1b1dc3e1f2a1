// tricktable scoreboard: the end of the night. /results (standings, every game table by table,
// links to each player's scorecard, print and CSV) and /scorecard/NAME (one player's games:
// table, seat, partner, opponents, score). Read from /api/results and /api/scorecard/NAME,
// derived from the night file. Loaded after app.js (el, tableName, plural).
"use strict";

(() => {
  const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };

  function state(v) {
    return v.finished ? `Final · ${plural(v.games_played, "game")}` : `After ${v.games_played} of ${v.rounds} games (the night is not over)`;
  }

  function fail(id, text) {
    const error = document.getElementById(id);
    error.hidden = false;
    error.textContent = text;
  }

  function mark(s) {
    if (s.high) return el("span", { class: "mark high", text: "HIGH" });
    if (s.low) return el("span", { class: "mark low", text: "LOW" });
    return null;
  }

  function standingRow(s) {
    const link = el("a", { href: `/scorecard/${encodeURIComponent(s.name)}`, text: s.name });
    const pageLink = playerPageLink(s.name, "★", { "aria-label": `${s.name}: player page` });
    return el("tr", { "data-player": s.name, class: s.high ? "high" : s.low ? "low" : "" },
      el("td", { class: "n", text: String(s.rank) }), el("th", { scope: "row", class: "player" }, link, pageLink && " ", pageLink),
      el("td", { class: "n total", text: String(s.total) }), el("td", { class: "n", text: String(s.won) }),
      el("td", { class: "n", text: String(s.played) }), el("td", {}, mark(s)));
  }

  function gameTable(g) {
    const rows = g.tables.map((t) => {
      const win = (team) => (t.winner === team ? `won${t.decided ? " (a tie, settled by the director)" : ""}` : "");
      return el("tr", { "data-table": String(t.table) },
        el("th", { scope: "row" }, tableName(t.table),
          ...(t.corrected || []).map((words) => el("small", { class: "corrected", text: words }))),
        el("td", { text: `${t.seats.N} & ${t.seats.S}` }), el("td", { class: "n", text: String(t.score[0]) }),
        el("td", { class: "won", text: win("A") }),
        el("td", { text: `${t.seats.E} & ${t.seats.W}` }), el("td", { class: "n", text: String(t.score[1]) }),
        el("td", { class: "won", text: win("B") }));
    });
    const head = el("tr", {}, ...["Table", "North & South", "Score", "", "East & West", "Score", ""]
      .map((h, i) => el("th", { scope: "col", class: i === 2 || i === 5 ? "n" : "", text: h })));
    return el("section", { class: "game", "data-game": String(g.game) },
      el("h3", { text: `Game ${g.game}` }),
      el("table", { class: "results game-table" }, el("thead", {}, head), el("tbody", {}, ...rows)));
  }

  async function resultsPage() {
    const r = await fetch("/api/results");
    const v = await r.json();
    if (!r.ok) { fail("results-error", v.error); return; }
    document.getElementById("results-status").textContent = state(v);
    document.querySelector("#results-standings tbody").replaceChildren(...v.standings.map(standingRow));
    showUnranked(v);
    document.getElementById("games-section").hidden = v.games.length === 0;
    document.getElementById("games").replaceChildren(...v.games.map(gameTable));
    document.body.dataset.ready = "yes";
  }

  async function scorecardPage() {
    const player = decodeURIComponent(location.pathname.split("/").pop());
    const r = await fetch(`/api/scorecard/${encodeURIComponent(player)}`);
    const v = await r.json();
    if (!r.ok) { fail("card-error", v.error); return; }
    document.getElementById("card-title").textContent = `Scorecard · ${v.name}`;
    document.title = `tricktable · scorecard · ${v.name}`;
    const s = v.standing;
    document.getElementById("card-status").textContent =
      `${state(v)} · rank ${s.rank} · total ${s.total}${s.high ? " · high score" : s.low ? " · low score" : ""}`;
    document.querySelector("#card tbody").replaceChildren(...v.lines.map((line) => el("tr", { "data-game": String(line.game) },
      el("td", { class: "n", text: String(line.game) }),
      el("td", { text: line.seat === "bye" ? "sat out" : tableName(line.table) }),
      el("td", { text: SEAT_NAMES[line.seat] || line.seat }), el("td", { text: line.partner }),
      el("td", { text: line.opponents.filter(Boolean).join(" & ") }),
      el("td", { class: "n", text: String(line.score) }), el("td", { class: "n", text: String(line.against) }),
      el("td", { text: `${line.seat === "bye" ? "bye" : line.won ? "won" : "lost"}${line.settled ? " (a tie, settled by the director)" : ""}` }))));
    document.getElementById("card-total").textContent = String(s.total);
    document.getElementById("card-won").textContent = `${s.won} won`;
    document.body.dataset.ready = "yes";
  }

  document.getElementById("print").addEventListener("click", () => window.print());
  const paper = new URLSearchParams(location.search).get("paper");
  if (paper === "a4" || paper === "letter") document.body.classList.add(`paper-${paper}`);
  playersReady.then(document.body.dataset.page === "results" ? resultsPage : scorecardPage);
})();
