// tricktable scoreboard: "where do I sit?" (/seat), for a player's phone. Type or pick your
// name (kept on the phone; ?name= works too) and see your table and seat for this game of the
// night in large type, live over the "standings" server-sent event: the bell, the moves, a
// game you sit out, the end of the night. Loaded after app.js (el, live, tableName).
"use strict";

(() => {
  const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  let night = null;
  let wanted = params.get("name") || localStorage.getItem("seat-name") || "";

  const fold = (s) => String(s).trim().toLocaleLowerCase();

  function players(v) {
    const out = [];
    for (const t of v.seating || []) for (const [seat, name] of Object.entries(t.seats)) out.push({ name, table: t.table, seat });
    for (const name of v.bench || []) out.push({ name, bench: true });
    return out;
  }

  function show() {
    const v = night;
    if (!v) return;
    const everyone = players(v);
    const known = new Set([...everyone.map((p) => p.name), ...v.standings.map((s) => s.name), ...(v.unranked || [])]);
    showChildren($("names"), ...[...known].sort((a, b) => a.localeCompare(b)).map((n) => el("option", { value: n })));
    const answer = $("answer");
    const key = fold(wanted);
    answer.hidden = !key;
    if (!key) return;
    const me = everyone.find((p) => fold(p.name) === key);
    const standing = v.standings.find((s) => fold(s.name) === key);
    const apart = (v.unranked || []).find((n) => fold(n) === key);
    document.body.dataset.found = me || standing || apart ? "yes" : "no";
    // a name still being typed: the names it may become, not a refusal
    const typing = me || standing || apart ? [] : [...known].filter((n) => fold(n).startsWith(key));
    if (typing.length) {
      $("seat-game").textContent = v.finished ? "The night is over" : `Game ${v.round} of ${v.rounds}`;
      $("seat-where").textContent = "–";
      $("seat-note").textContent = `Keep typing, or pick your name: ${typing.slice(0, 4).join(", ")}${typing.length > 4 ? " …" : ""}`;
      return;
    }
    if (v.finished) {
      $("seat-game").textContent = "The night is over";
      $("seat-where").textContent = standing ? `#${standing.rank} · ${standing.total} points` : "";
      $("seat-note").textContent = standing ? `${standing.name}: ${standing.won} of ${standing.played} games won`
        : apart ? `${apart} played no game tonight` : `No player called ${wanted.trim()} tonight`;
      return;
    }
    $("seat-game").textContent = `Game ${v.round} of ${v.rounds}`;
    if (!me) {
      $("seat-where").textContent = "–";
      $("seat-note").textContent = `No player called ${wanted.trim()} is seated tonight: ask the director`;
      return;
    }
    $("seat-where").textContent = me.bench ? "You sit out this game" : `${tableName(me.table)} · ${SEAT_NAMES[me.seat]}`;
    $("seat-note").textContent = v.bell
      ? "The bell has rung: finish your hand; your next seat shows here when every table is done"
      : me.bench ? "You play again in a later game" : `${me.name}${me.table === 1 ? " · the head table" : ""}`;
  }

  $("name").value = wanted;
  $("name").addEventListener("input", () => {
    wanted = $("name").value;
    localStorage.setItem("seat-name", wanted);
    show();
  });
  $("who").addEventListener("submit", (e) => { e.preventDefault(); $("name").blur(); });

  fetch("/api/standings").then((r) => (r.ok ? r.json() : null)).then((v) => {
    if (!v) { $("no-night").hidden = false; return; }
    night = v;
    show();
    const source = new EventSource("/api/stream?only=standings");
    live(source);
    source.addEventListener("standings", (e) => { night = JSON.parse(e.data); show(); });
  });
})();
