// Tagging a deck with a phone (/enroll, behind the admin token): Web NFC reads each tag's UID
// and the host's registry takes it as the next card of the deck (docs/phones.md).
"use strict";

const $ = (id) => document.getElementById(id);
let token = "";
let deck = 0;
let busy = false;
let last = { uid: "", at: 0 };

async function call(path, body) {
  const r = await fetch(path, {
    method: body ? "POST" : "GET",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, data: await r.json() };
}

function flash(kind, word, detail) {
  const box = $("verdict");
  box.dataset.kind = kind;
  $("verdict-word").textContent = word;
  $("verdict-detail").textContent = detail || "";
  box.hidden = false;
  if (navigator.vibrate) navigator.vibrate(kind === "accepted" ? [80] : [200, 100, 200]);
  setTimeout(() => { box.hidden = true; }, 1500);
}

function show(progress) {
  $("ask").textContent = progress.next ? `Tap the ${progress.next}` : "Deck complete";
  $("count").textContent = `${progress.done} of ${progress.total} tagged · deck ${progress.deck} (${progress.kind})`;
  document.body.dataset.done = String(progress.done);
}

async function tagged(serial) {
  const uid = String(serial || "").replace(/:/g, "").toLowerCase();
  const now = Date.now();
  if (busy || (uid === last.uid && now - last.at < 3000)) { last.at = now; return; }
  last = { uid, at: now };
  busy = true;
  try {
    const { status, data } = await call(`/api/enroll/${deck}/tag`, { uid });
    if (status === 200) { flash("accepted", data.enrolled, `tag ${uid}`); show(data); }
    else flash("refused", "Not taken", data.error || "refused");
  } catch (_) {
    flash("refused", "No answer", "check the Wi-Fi and tap the card again");
    last = { uid: "", at: 0 };
  } finally { busy = false; }
}

$("deck-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  token = $("token").value;
  deck = Number($("deck").value);
  const { status, data } = await call("/api/enroll", { deck, kind: $("kind").value, name: $("name").value });
  if (status !== 200) { $("note").textContent = data.error || "refused"; return; }
  $("status").textContent = "signed in";
  show(data);
  $("deck-form").hidden = true;
  $("tagging").hidden = false;
  if (!("NDEFReader" in window)) {
    $("note").textContent = "This browser cannot read NFC tags: open this page in Chrome on an Android phone with NFC.";
    return;
  }
  try {
    const reader = new NDEFReader();
    reader.addEventListener("reading", (ev) => tagged(ev.serialNumber));
    reader.addEventListener("readingerror", () => flash("refused", "Tap again", "the tag was not read whole"));
    await reader.scan();
    document.body.dataset.reading = "yes";
  } catch (err) {
    $("note").textContent = `NFC could not start (${err && err.name}): allow NFC for this site and turn NFC on`;
  }
});
