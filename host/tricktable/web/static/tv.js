// tricktable scoreboard: the TV mode (/tv). One 16:9 screen across the room: every table as a
// tile (natural order), the standings in columns and the find-your-seat list, rotating page by
// page when they do not fit; a round clock (time since the game began, hands to the bell); the
// bell and revoke banners (the bell with a Web Audio beep); a table that just scored a hand or
// finished a game lights up with the result. Loaded after app.js (el, live, tableName, byTable,
// phaseText, plural). URL options: ?rotate=SECONDS (0 stops), ?screen=tables|standings|seats
// (show only that), ?page=N (with rotate=0: the Nth screen), ?flash=SECONDS.
"use strict";

(() => {
  const params = new URLSearchParams(location.search);
  const number = (key, fallback) => (params.has(key) ? Number(params.get(key)) : fallback);
  const ROTATE = number("rotate", 15);
  const FLASH = number("flash", 8); // a hand's result stays lit this long, a game's twice that
  const PIN = params.get("screen");
  const START = Math.max(0, number("page", 1) - 1);
  const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
  const MAX_REVOKES = 3;

  const tables = new Map(); // table id -> summary
  const flashes = new Map(); // table id -> { kind, text, until }
  let night = null, offset = 0, screens = [], current = START, scheduled = false;
  let audio = null, beeps = 0, draws = 0, trim = 0;
  let hostDown = null; // the tables' host has not said it runs (from /api/club, every 3 s; null: not asked yet)

  const rem = (n) => n * parseFloat(getComputedStyle(document.documentElement).fontSize);
  const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

  // ---- what changed at a table: the end of a hand, the end of a game --------------------
  function noteChange(before, after) {
    if (!before) return;
    const sides = after.sides || [];
    if (after.game_over && !before.game_over) {
      const side = sides[after.winner];
      const text = `Game over · ${(after.scores || []).join("–")}${side ? ` · ${side.name} win` : ""}`;
      flashes.set(after.table, { kind: "game", text, until: Date.now() + 2 * FLASH * 1000 });
      return;
    }
    const was = before.last_hand, now = after.last_hand;
    if (now && (!was || was.hand_number !== now.hand_number)) {
      // the sides' names are on the tile right above, in the same order as the points
      const points = (now.deltas || now.points || []).map(signed).join(" / ");
      flashes.set(after.table, { kind: "hand", text: `Hand ${now.hand_number} scored: ${points}`, until: Date.now() + FLASH * 1000 });
    }
  }

  function flashOf(id) {
    const f = flashes.get(id);
    if (f && f.until <= Date.now()) { flashes.delete(id); return null; }
    return f || null;
  }

  // ---- tiles -------------------------------------------------------------------------
  function tile(t) {
    const f = flashOf(t.table);
    const node = el("article", { class: `tile${f ? ` flash flash-${f.kind}` : ""}`, "data-table": t.table });
    const after = bellState(t);
    node.append(el("header", {}, el("h2", { text: tableName(t.table) }),
      el("span", { class: "tile-phase", text: after ? "Bell" : t.night_over ? "Final" : `Hand ${t.hand_number ?? "–"} · ${phaseText(t)}` })));
    if (after) node.classList.add(`after-bell-${after.kind}`);
    (t.sides || []).forEach((side, i) => {
      node.append(el("p", { class: `side s${i}` }, el("span", { class: "side-name", text: side.name }),
        el("span", { class: "side-score", text: String((t.scores || [])[i] ?? 0) })));
    });
    const alerts = t.alerts || [];
    // after the bell the tile's line says where the table is: done, or still in its hand
    if (after) node.append(el("p", { class: `tile-bell bell-${after.kind}`, text: after.text }));
    else if (f) node.append(el("p", { class: `result ${f.kind}`, text: f.text }));
    else if (alerts.length) node.append(el("p", { class: `tile-alert ${alerts[0].kind}`, text: alerts[0].text }));
    else if (t.night_over) node.append(el("p", { class: "tile-line", text: "the night is over" }));
    else if (t.contract_text) node.append(el("p", { class: "tile-line", text: t.contract_text }));
    else if (t.to_act_name && !t.game_over) node.append(el("p", { class: "tile-line", text: `${t.to_act_name} to act` }));
    return node;
  }

  // After the bell: a table is done (its hand scored) or still finishing its hand.
  function bellState(t) {
    if (!night || !night.bell || !(night.tables || []).includes(t.table)) return null;
    if ((night.closed || []).includes(t.table)) return { kind: "done", text: "Done" };
    return { kind: "late", text: `Finishing hand ${t.hand_number ?? ""}`.trim() };
  }

  function lateTables() {
    if (!night || !night.bell) return [];
    return (night.tables || []).filter((id) => !(night.closed || []).includes(id));
  }

  function tableLayout(count, width, height) {
    const gap = rem(0.6);
    // as many columns as fit, but no more than the tables: a few tables get wide tiles
    const cols = Math.max(1, Math.min(Math.max(1, count), Math.floor((width + gap) / (rem(14) + gap))));
    const fit = Math.max(1, Math.floor((height + gap) / (rem(7) + gap)));
    const rows = Math.max(1, Math.min(fit, Math.ceil(count / cols)));
    const tall = Math.min(rem(11), (height - gap * (rows - 1)) / rows);
    return { cols, rows, tall, per: cols * rows };
  }

  // ---- lists: standings and find-your-seat ---------------------------------------------
  function standingItem(s) {
    const marks = [];
    if (s.high) marks.push(el("span", { class: "mark high", text: "HIGH" }));
    if (s.low) marks.push(el("span", { class: "mark low", text: "LOW" }));
    return el("li", { class: `row${s.high ? " high" : ""}`, "data-player": s.name },
      el("span", { class: "rank", text: String(s.rank) }), playerName(s.name, { class: "who" }),
      el("span", { class: "marks" }, ...marks), el("span", { class: "total", text: String(s.total) }));
  }

  function seatList(v) {
    const seats = [];
    for (const t of v.seating || []) {
      for (const [seat, name] of Object.entries(t.seats)) seats.push({ name, table: t.table, seat });
    }
    return seats.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base" }));
  }

  function seatItem(s) {
    return el("li", { class: "row", "data-player": s.name }, playerName(s.name, { class: "who" }),
      el("span", { class: "where", text: `${tableName(s.table)} · ${SEAT_NAMES[s.seat] || s.seat}` }));
  }

  function listLayout(width, height, column) {
    const gap = rem(1.5);
    const cols = Math.max(1, Math.floor((width + gap) / (rem(column) + gap)));
    const rows = Math.max(1, Math.floor(height / rem(2.2)) - trim);
    return { cols, rows, per: cols * rows };
  }

  // ---- the screens -------------------------------------------------------------------
  function pages(kind, items, per) {
    const count = Math.max(1, Math.ceil(items.length / per));
    return Array.from({ length: count }, (_, i) => ({ kind, page: i + 1, pages: count, items: items.slice(i * per, (i + 1) * per) }));
  }

  function buildScreens(width, height) {
    const out = [];
    const want = (kind) => !PIN || PIN === kind;
    const sorted = [...tables.values()].sort((a, b) => byTable(a.table, b.table));
    const tl = tableLayout(sorted.length, width, height);
    if (want("tables") && (sorted.length || !night)) out.push(...pages("tables", sorted, tl.per).map((s) => ({ ...s, layout: tl })));
    const ll = listLayout(width, height, 21), sl = listLayout(width, height, 26);
    if (night && want("standings") && night.standings.length) out.push(...pages("standings", night.standings, ll.per).map((s) => ({ ...s, layout: ll })));
    const seats = night ? seatList(night) : [];
    if (want("seats") && seats.length) out.push(...pages("seats", seats, sl.per).map((s) => ({ ...s, layout: sl })));
    return out;
  }

  function title(s) {
    const of = s.pages > 1 ? ` · page ${s.page} of ${s.pages}` : "";
    if (s.kind === "tables") return `Tables${of}`;
    if (s.kind === "standings") {
      const when = night.finished ? "final" : `after ${plural(night.games_played, "game")}`;
      return `Standings · ${when}${of}`;
    }
    return `Find your seat · game ${night.round}${of}`;
  }

  function drawScreen(box, s) {
    document.body.dataset.screen = s.kind;
    document.body.dataset.screenPage = `${s.page}/${s.pages}`;
    document.getElementById("tv-where").textContent = title(s);
    if (s.kind === "tables") {
      const grid = el("div", { class: "tiles" });
      grid.style.gridTemplateColumns = `repeat(${s.layout.cols}, minmax(0, 1fr))`;
      grid.style.gridTemplateRows = `repeat(${s.layout.rows}, ${s.layout.tall}px)`;
      grid.append(...s.items.map(tile));
      showChildren(box, s.items.length ? grid : el("p", { class: "empty", text: "No table has reported yet." }));
      return;
    }
    const list = el("ol", { class: `tv-list ${s.kind}` });
    list.style.gridTemplateColumns = `repeat(${s.layout.cols}, minmax(0, 1fr))`;
    list.style.gridTemplateRows = `repeat(${s.layout.rows}, 2.2rem)`;
    list.append(...s.items.map(s.kind === "standings" ? standingItem : seatItem));
    showChildren(box, list);
  }


  // ---- the bar: clock and banners ------------------------------------------------------
  function clockText() {
    if (night && night.bell && !night.finished) return "BELL";
    if (!night || night.finished || night.round_started == null) return "";
    const secs = Math.max(0, Math.floor((Date.now() + offset) / 1000 - night.round_started));
    const h = Math.floor(secs / 3600), m = Math.floor((secs % 3600) / 60), s = secs % 60;
    const two = (n) => String(n).padStart(2, "0");
    return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
  }

  function drawClock() {
    const clock = document.getElementById("clock");
    clock.hidden = !night || !night.rounds;
    if (clock.hidden) return;
    document.getElementById("clock-game").textContent = night.finished ? "Final results" : `Game ${night.round} of ${night.rounds}`;
    document.getElementById("clock-time").textContent = clockText();
    document.getElementById("clock-time").classList.toggle("ringing", Boolean(night.bell && !night.finished));
    const hands = document.getElementById("clock-hands");
    const late = lateTables().length, known = (night.tables || []).length > 0;
    hands.textContent = night.finished ? "" : night.bell ? (!known ? "BELL" : late ? `${plural(late, "table")} still playing` : "all tables done")
      : `${plural(night.hands_left, "hand")} to the bell`;
    hands.classList.toggle("ringing", Boolean(night.bell));
    const played = night.hands_per_round - night.hands_left;
    document.getElementById("pips").replaceChildren(...Array.from({ length: night.finished ? 0 : night.hands_per_round },
      (_, i) => el("span", { class: i < played ? "pip done" : "pip" })));
  }

  function drawBanners() {
    const out = [];
    // no host has said it runs (or it went away): the room must not think the night is live
    document.body.dataset.host = hostDown === null ? "unknown" : hostDown ? "down" : "running";
    if (hostDown && !(night && night.finished)) out.push(el("p", { class: "banner host", id: "host-down",
      text: "The tables' host is not running: plays wait on the tables. Director: `tricktable log` says why" }));
    if (night && night.bell) {
      out.push(el("p", { class: "banner bell", text: "BELL · every table finishes the hand in play, then the players move" }));
      const late = lateTables();
      const since = night.bell_at ? Math.max(0, Math.round((Date.now() + offset) / 1000 - night.bell_at)) : null;
      // the time since the bell first: a long list of tables is what gets cut, never the time
      const when = since == null ? "" : `${Math.floor(since / 60)}:${String(since % 60).padStart(2, "0")} since the bell · `;
      if ((night.tables || []).length) out.push(el("p", { class: "banner late", id: "late-strip", text: late.length
        ? `${when}Still playing: ${late.map(tableName).join(", ")}` : "Every table is done: the moves come next" }));
    }
    if (night && night.error) out.push(el("p", { class: "banner error", text: `The night file could not be read; showing the last good standings. ${night.error}` }));
    const sorted = [...tables.values()].sort((a, b) => byTable(a.table, b.table));
    const host = new Set();
    const revokes = [];
    for (const t of sorted) {
      for (const a of t.alerts || []) {
        if (a.kind === "revoke") revokes.push(`${tableName(t.table)} · ${a.text}`);
        if (a.kind === "host") host.add(a.text);
      }
    }
    for (const text of host) out.push(el("p", { class: "banner host", text }));
    const shown = revokes.length > MAX_REVOKES ? MAX_REVOKES - 1 : MAX_REVOKES; // one row of them
    for (const text of revokes.slice(0, shown)) out.push(el("p", { class: "banner revoke", text }));
    if (revokes.length > shown) out.push(el("p", { class: "banner revoke", text: `and ${revokes.length - shown} more revokes` }));
    document.getElementById("banners").replaceChildren(...out);
  }

  // ---- drawing -----------------------------------------------------------------------
  function draw() {
    scheduled = false;
    draws += 1;
    document.body.dataset.draws = String(draws);
    drawClock();
    drawBanners();
    const box = document.getElementById("screen"); // not emptied: an unchanged screen keeps its nodes and links
    const width = box.clientWidth, height = box.clientHeight;
    screens = buildScreens(width, height);
    if (!screens.length) return;
    current %= screens.length;
    drawScreen(box, screens[current]);
    const list = box.querySelector(".tv-list");
    // never beyond the screen: should the rows come out taller than planned, plan fewer
    if (list && list.scrollHeight > list.clientHeight + 1 && screens[current].layout.rows > 1) {
      trim += 1;
      schedule();
    }
  }

  function schedule() { // draw once per frame, however many messages came
    if (!scheduled) { scheduled = true; requestAnimationFrame(draw); }
  }

  // ---- sound -------------------------------------------------------------------------
  function setUpSound() {
    const button = document.getElementById("sound");
    try { audio = new AudioContext(); } catch { audio = null; }
    const check = () => { button.hidden = !audio || audio.state === "running"; };
    if (audio) audio.onstatechange = check;
    check();
    button.addEventListener("click", () => { if (audio) audio.resume().then(check); });
  }

  function beep() {
    beeps += 1;
    document.body.dataset.beeps = String(beeps);
    if (!audio) return;
    const t0 = audio.currentTime;
    [[0, 880], [0.45, 660], [0.9, 880]].forEach(([delay, pitch]) => {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = pitch;
      gain.gain.setValueAtTime(0.0001, t0 + delay);
      gain.gain.exponentialRampToValueAtTime(0.5, t0 + delay + 0.03);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + delay + 0.4);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + delay);
      osc.stop(t0 + delay + 0.42);
    });
  }

  // ---- data --------------------------------------------------------------------------
  function takeNight(v) {
    const before = night;
    night = v;
    offset = v.now * 1000 - Date.now();
    if (before && v.bell && !before.bell) beep();
    if (before && v.round !== before.round && !PIN) {
      const first = screens.findIndex((s) => s.kind === "seats");
      if (first >= 0) current = first; // a new game: everyone looks for their seat first
    }
    schedule();
  }

  function takeTable(t) {
    if (t.missing) { tables.delete(t.table); flashes.delete(t.table); } else {
      noteChange(tables.get(t.table), t);
      tables.set(t.table, t);
    }
    schedule();
  }

  // The title: the club's name as the tables' host says it (its club file), kept once seen (the
  // host's last will names no club); without a host, the night file's name.
  let clubName = "", nightName = "";
  function showTitle(club) {
    clubName = (club.host && club.host.club) || clubName;
    const text = clubName || nightName || "tricktable";
    document.getElementById("tv-title").textContent = text;
    document.title = `${text} · TV`;
  }

  function start() {
    setUpSound();
    Promise.all([
      fetch("/api/club").then((r) => r.json()),
      fetch("/api/standings").then((r) => (r.ok ? r.json() : null)),
    ]).then(([club, v]) => {
      for (const t of club.tables) if (!tables.has(t.table)) tables.set(t.table, t);
      if (v && !night) { night = v; offset = v.now * 1000 - Date.now(); }
      nightName = v ? v.night.replace(/\.json$/, "") : "";
      showTitle(club);
      schedule();
      const source = new EventSource("/api/stream");
      live(source);
      source.addEventListener("table", (e) => takeTable(JSON.parse(e.data)));
      source.addEventListener("standings", (e) => takeNight(JSON.parse(e.data)));
    });
    window.addEventListener("resize", schedule);
    const checkHost = () => fetch("/api/club").then((r) => r.json()).then((club) => {
      showTitle(club);
      const down = !(club.host && club.host.running);
      const badge = document.getElementById("live");
      if (down && badge) { badge.textContent = "host down"; badge.className = "live off"; }
      else if (badge && badge.textContent === "host down") { badge.textContent = "live"; badge.className = "live on"; }
      // the banner takes room: the screens are planned again, so no row ends up below the screen
      if (down !== hostDown) { hostDown = down; schedule(); }
    }).catch(() => {});
    checkHost();
    setInterval(checkHost, 3000);
    setInterval(() => {
      if (night) document.getElementById("clock-time").textContent = clockText();
      if (night && night.bell) drawBanners(); // the late strip's time
      const lit = [...flashes.values()].some((f) => f.until <= Date.now());
      if (lit) schedule(); // a result's time is up: back to the plain tile
    }, 1000);
    if (ROTATE > 0) {
      setInterval(() => { if (screens.length > 1) { current = (current + 1) % screens.length; schedule(); } }, ROTATE * 1000);
    }
  }

  playersReady.then(start);
})();
