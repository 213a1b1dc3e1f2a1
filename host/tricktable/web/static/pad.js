// The seat reader (/pad): a phone under the felt reads each card placed over it (Web NFC:
// NDEFReader.scan(), each reading's serialNumber is the tag's UID) and reports it to the host
// as its seat's reader, through the scoreboard (POST /api/pad/play). Plays are numbered and
// kept in localStorage until the host acknowledges each, so a reload or a dropped Wi-Fi loses
// nothing; the host refuses a second copy by its number. A play whose send got no answer, or
// that outlived a reload, is marked kept: the host may hold it until the cards placed before it
// on the table's other phones arrive, so kept plays are applied in the order they were placed.
// docs/phones.md.
"use strict";

const KEY = "tricktable.pad.v1";
const STILL_MS = 3000; // the same card read again within this of its last reading lies there still
const VERDICT_MS = 3500; // how long a verdict fills the screen
const RETRY_MS = [500, 1000, 2000, 4000];

const pad = {
  saved: null, // {device, credential, pairing, next, outbox: [{seq, uid, t, kept}]}
  last: null, // {uid, at}: the card on the field
  sending: false,
  stopped: "", // why the host will take no more plays from this phone
  audio: null,
  wake: null,
  scan: null, // the AbortController of the NFC scan
  state: null,
  timer: 0,
  placedAt: new Map(), // seq -> when its card was read (performance.now()), this page's plays
  verdictMs: [], // card read to verdict on screen, ms, since the last status (at most 16)
};

function randomHex(bytes) {
  const a = new Uint8Array(bytes);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Saved in localStorage (a phone keeps its pairing and outbox when Chrome is closed) and in
// this tab's sessionStorage, read first: tabs of one browser share localStorage, so
// `demo --phones`'s four seat pages would otherwise each come back from a reload as the seat
// that saved last.
function load() {
  let saved = null;
  try {
    saved = JSON.parse(sessionStorage.getItem(KEY) || localStorage.getItem(KEY) || "null");
  } catch (_) { saved = null; }
  if (!saved || typeof saved !== "object") saved = {};
  saved.device = saved.device || randomHex(16);
  saved.outbox = Array.isArray(saved.outbox) ? saved.outbox : [];
  saved.next = Number.isInteger(saved.next) ? saved.next : 1;
  const m = /(?:^|[#&])pair=([0-9]+-[A-Za-z0-9_-]+)/.exec(location.hash);
  if (m) {
    if (m[1] !== saved.credential) { // a new pairing: its plays are numbered afresh
      saved.credential = m[1];
      saved.pairing = null;
      saved.outbox = [];
      saved.next = 1;
    }
    history.replaceState(null, "", location.pathname + location.search);
  }
  for (const play of saved.outbox) play.kept = true; // not answered before this page began
  pad.saved = saved;
  save();
}

function save() {
  const text = JSON.stringify(pad.saved);
  localStorage.setItem(KEY, text);
  sessionStorage.setItem(KEY, text);
  const n = pad.saved.outbox.length;
  document.body.dataset.pending = String(n);
  document.getElementById("pending").textContent =
    n ? `${plural(n, "play")} waiting for the host; kept on this phone until it answers` : "";
}

async function post(path, body) {
  const r = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${pad.saved.credential}` },
    body: JSON.stringify({ device: pad.saved.device, ...body }),
  });
  let data = {};
  try { data = await r.json(); } catch (_) { data = {}; }
  return { status: r.status, data };
}

// --- the verdict across the whole screen, with a vibration and a sound ---------------------

function tone(kind) {
  const ctx = pad.audio;
  if (!ctx) return;
  const notes = { accepted: [880], counted: [880], refused: [220, 180], revoke: [660, 440, 660] }[kind] || [];
  notes.forEach((freq, i) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = freq;
    osc.connect(gain).connect(ctx.destination);
    const at = ctx.currentTime + i * 0.18;
    gain.gain.setValueAtTime(0.25, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + 0.16);
    osc.start(at);
    osc.stop(at + 0.17);
  });
}

function showVerdict(kind, word, detail, seq) {
  const box = document.getElementById("verdict");
  box.dataset.kind = kind;
  box.dataset.seq = seq == null ? "" : String(seq);
  const at = seq == null ? undefined : pad.placedAt.get(seq);
  box.dataset.ms = at === undefined ? "" : String(Math.round(performance.now() - at));
  if (at !== undefined) {
    pad.placedAt.delete(seq);
    pad.verdictMs = [...pad.verdictMs, Math.round(performance.now() - at)].slice(-16);
  }
  document.getElementById("verdict-word").textContent = word;
  document.getElementById("verdict-detail").textContent = detail || "";
  box.hidden = false;
  const buzz = { accepted: [80], counted: [80], refused: [200, 100, 200], revoke: [400, 100, 400, 100, 400] }[kind];
  if (buzz && navigator.vibrate) navigator.vibrate(buzz);
  tone(kind);
  clearTimeout(pad.timer);
  if (kind !== "unpaired") pad.timer = setTimeout(() => { box.hidden = true; }, VERDICT_MS);
}

function verdictOf(answer) {
  if (answer.repeat) return ["counted", "Counted", "the host already had this play"];
  const v = answer.verdict || {};
  const revoke = Boolean(v.feedback && v.feedback.buzz === "revoke");
  if (v.kind === "accepted" && revoke) return ["revoke", "Revoke!", `${v.words || ""} — not following suit; the director is told`];
  if (v.kind === "accepted") return ["accepted", "✓", v.words || "accepted"];
  if (v.code === "not_your_turn") return ["refused", "Not your turn", v.reason];
  return ["refused", "Take it back", v.reason || "refused"];
}

// --- the outbox: numbered plays, kept until acknowledged --------------------------------------

function placed(serial) {
  if (pad.stopped) { showVerdict("unpaired", "Not paired", pad.stopped); return; }
  const uid = String(serial || "").replace(/:/g, "").toLowerCase();
  if (!/^([0-9a-f]{2}){4,10}$/.test(uid)) {
    showVerdict("refused", "Not a card", "this tag has no card's serial number: place a card");
    return;
  }
  const now = Date.now();
  if (pad.last && pad.last.uid === uid && now - pad.last.at < STILL_MS) {
    pad.last.at = now; // read again while it lies there: the same play
    return;
  }
  pad.last = { uid, at: now };
  const play = { seq: pad.saved.next, uid, t: Math.round(performance.now()) };
  pad.placedAt.set(play.seq, performance.now());
  pad.saved.next += 1;
  pad.saved.outbox.push(play);
  save();
  showVerdict("sending", "…", "checking the card");
  pump();
}

async function pump() {
  if (pad.sending || pad.stopped) return;
  pad.sending = true;
  let tries = 0;
  try {
    while (pad.saved.outbox.length && !pad.stopped) {
      const play = pad.saved.outbox[0];
      let answer;
      try {
        answer = await post("/api/pad/play", play);
      } catch (_) {
        answer = { status: 0, data: {} }; // no network: try again
      }
      if (answer.status === 200 && answer.data.acked) {
        pad.saved.outbox.shift();
        save();
        tries = 0;
        const [kind, word, detail] = verdictOf(answer.data);
        showVerdict(kind, word, detail, play.seq);
        continue;
      }
      if (answer.status === 403 || answer.status === 409) {
        stop(answer.data.error || "the host refuses this phone");
        return;
      }
      if (answer.status === 400) { // a play no reader could send: it never will be
        pad.saved.outbox.shift();
        save();
        showVerdict("refused", "Not read", answer.data.error || "", play.seq);
        continue;
      }
      if (!play.kept) { // no answer: kept until the host is back (it may hold it for its turn)
        play.kept = true;
        save();
      }
      document.getElementById("live").textContent = "waiting for the host…";
      await new Promise((ok) => setTimeout(ok, RETRY_MS[Math.min(tries, RETRY_MS.length - 1)]));
      tries += 1;
    }
  } finally {
    pad.sending = false;
  }
}

function stop(why) {
  pad.stopped = why;
  if (pad.scan) pad.scan.abort(); // this phone reads no more cards
  document.body.dataset.reading = "refused";
  document.getElementById("note").textContent = why;
  showVerdict("unpaired", "Not paired", why);
}

// --- reading: Web NFC, or the labelled stand-in ------------------------------------------

async function startReading() {
  if (!pad.audio && window.AudioContext) pad.audio = new AudioContext();
  keepAwake();
  const note = document.getElementById("note");
  if (!("NDEFReader" in window)) {
    note.textContent = "This browser cannot read NFC cards: open this page in Chrome on an Android phone with NFC.";
    return;
  }
  try {
    const reader = new NDEFReader();
    reader.addEventListener("reading", (e) => placed(e.serialNumber));
    reader.addEventListener("readingerror", () => showVerdict("refused", "Place it again", "the card was not read whole"));
    pad.scan = new AbortController();
    await reader.scan({ signal: pad.scan.signal });
    document.body.dataset.reading = "yes";
    document.getElementById("start-box").hidden = true;
    note.textContent = "Reading: place each card over the phone.";
  } catch (err) {
    const why = {
      NotAllowedError: "NFC was not allowed: allow it for this site (Chrome: the lock by the address → Permissions → NFC) and press Start again.",
      NotSupportedError: "This phone cannot read NFC, or NFC is off: turn NFC on in the phone's settings and press Start again.",
      NotReadableError: "NFC is busy or off: turn it on and press Start again.",
    }[err && err.name] || `NFC could not start: ${err && err.message}`;
    note.textContent = why;
  }
}

async function keepAwake() {
  if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  try {
    pad.wake = await navigator.wakeLock.request("screen");
    document.body.dataset.awake = "yes";
  } catch (_) { document.body.dataset.awake = "no"; }
}

async function standIn() {
  const box = document.getElementById("standin");
  const r = await fetch("/api/pad/standin");
  if (!r.ok) return;
  const { tags } = await r.json();
  const select = document.getElementById("standin-card");
  select.replaceChildren(...tags.map((t) => el("option", { value: t.uid, text: t.name })));
  box.hidden = false;
  document.getElementById("standin-place").addEventListener("click", () => {
    if (!pad.audio && window.AudioContext) pad.audio = new AudioContext();
    pad.last = null; // a click is a new placement
    placed(select.value.match(/../g).join(":"));
  });
}

// --- the table between plays --------------------------------------------------------------

function drawTable(view) {
  const state = (view && view.state) || {};
  pad.state = state;
  const seat = pad.saved.pairing && pad.saved.pairing.seat;
  const turn = document.getElementById("turn");
  if (state.game_over) turn.textContent = "Game over";
  else if (state.to_act === seat) turn.textContent = "Your turn";
  else if (state.to_act != null) turn.textContent = `${seatName(state, state.to_act)} to play`;
  else turn.textContent = state.phase ? String(state.phase).replace(/_/g, " ") : "waiting for a game";
  turn.classList.toggle("mine", state.to_act === seat && !state.game_over);
  const rows = (state.sides || []).map((side, i) => el("tr", { "data-side": String(i) },
    el("th", { text: side.name }), el("td", { class: "num", text: String((state.scores || [])[i] ?? 0) })));
  showChildren(document.getElementById("score"), ...rows);
  const hand = state.hand_number != null ? `hand ${state.hand_number}` : "";
  document.getElementById("phase").textContent = [hand, state.contract_text || ""].filter(Boolean).join(" · ");
}

function follow(table) {
  const source = new EventSource(`/api/stream?table=${encodeURIComponent(table)}`);
  live(source);
  source.addEventListener("view", (e) => drawTable(JSON.parse(e.data)));
}

async function reportStatus() {
  if (pad.stopped) return;
  let battery = null;
  let charging = null;
  try {
    if (navigator.getBattery) {
      const b = await navigator.getBattery();
      battery = Math.round(b.level * 100);
      charging = b.charging;
    }
  } catch (_) { /* no battery API: say nothing */ }
  const network = navigator.connection ? navigator.connection.effectiveType : null;
  const verdictMs = pad.verdictMs;
  pad.verdictMs = [];
  try {
    await post("/api/pad/status", { battery, charging, network, verdict_ms: verdictMs });
  } catch (_) { pad.verdictMs = [...verdictMs, ...pad.verdictMs].slice(-16); /* offline */ }
}

async function main() {
  load();
  if (!pad.saved.credential) {
    stop("This phone is not paired with a seat: scan the seat's QR code on the director's console.");
    return;
  }
  let claim;
  try {
    claim = await post("/api/pad/claim", {});
  } catch (_) {
    claim = { status: 0, data: {} };
  }
  if (claim.status === 200) {
    pad.saved.pairing = claim.data;
    save();
  } else if (claim.status === 403 || claim.status === 409) {
    stop(claim.data.error || "the host refuses this phone");
    return;
  } else if (!pad.saved.pairing) {
    stop("The scoreboard does not answer: check the Wi-Fi and reload.");
    return;
  }
  const p = pad.saved.pairing;
  document.getElementById("where").textContent = `${tableName(p.table)} · ${p.where.split(" at ")[0]}`;
  document.title = `tricktable · ${tableName(p.table)} · ${p.where.split(" at ")[0]}`;
  document.body.dataset.seat = String(p.seat);
  follow(p.table);
  document.getElementById("start-box").hidden = false;
  document.getElementById("start").addEventListener("click", startReading);
  if (!("NDEFReader" in window)) standIn();
  document.addEventListener("visibilitychange", () => { if (pad.wake === null || pad.wake.released) keepAwake(); });
  window.addEventListener("online", pump);
  setInterval(pump, 5000);
  setInterval(reportStatus, 60000);
  reportStatus();
  pump(); // what a reload or a lost network left unsent
}

main();
