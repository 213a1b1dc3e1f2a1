// The fleet page: every board's health from /api/fleet (behind the admin token), refreshed
// every few seconds; a flagged board's row is marked; "Blink" lights a board's pads to find it.
// A phone reader (firmware "phone", docs/phones.md) is a row too, with its battery.
"use strict";

let token = sessionStorage.getItem("token") || "";
const $ = (id) => document.getElementById(id);

function cell(text, cls) {
  const td = document.createElement("td");
  td.textContent = text == null ? "–" : String(text);
  if (cls) td.className = cls;
  return td;
}

async function call(path, method = "GET") {
  const r = await fetch(path, { method, headers: { Authorization: `Bearer ${token}` } });
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

// One line per pad: cards read, misreads read again, PN532 frames sent again, resets.
function pads(b) {
  const td = document.createElement("td");
  td.className = "pads";
  const at = (list, i) => (list && list[i] != null ? list[i] : "–");
  const n = Math.max(...[b.reads, b.misses, b.reader_errors, b.reader_resets]
    .map((list) => (list || []).length));
  for (let i = 0; i < n; i++) {
    const line = document.createElement("div");
    line.dataset.pad = i;
    line.textContent = `pad ${i}: ${at(b.reads, i)} reads, ${at(b.misses, i)} misses, `
      + `${at(b.reader_errors, i)} retries, ${at(b.reader_resets, i)} resets`;
    td.append(line);
  }
  if (!n) td.textContent = "–";
  return td;
}

function row(b) {
  const tr = document.createElement("tr");
  tr.dataset.board = b.board;
  if (b.flags.length) tr.className = "flagged";
  tr.append(cell(b.board), cell(b.online ? "online" : "offline"), cell(b.fw),
            cell(b.uptime == null ? null : `${Math.floor(b.uptime / 60)} min`), cell(b.reboot),
            cell(b.heap), cell(b.rssi),
            cell(b.battery == null ? null : `${b.battery} %${b.charging ? " (charging)" : ""}`),
            pads(b), cell(b.pending, "num"));
  const flags = cell(b.flags.join("; ") || "ok", "flags");
  const blink = document.createElement("button");
  blink.type = "button";
  blink.textContent = "Blink";
  blink.addEventListener("click", async () => {
    try {
      await call(`/api/fleet/${encodeURIComponent(b.board)}/blink`, "POST");
      blink.textContent = "Blinking";
    } catch (e) { blink.textContent = e.message; }
  });
  const act = document.createElement("td");
  act.append(blink);
  tr.append(flags, act);
  return tr;
}

async function load() {
  try {
    const { boards } = await call("/api/fleet");
    $("signin").hidden = true;
    $("boards").hidden = false;
    $("status").textContent = `${boards.length} boards`;
    $("boards").querySelector("tbody").replaceChildren(...boards.map(row));
  } catch (e) {
    $("signin-error").textContent = e.message;
    $("signin-error").hidden = false;
    return;
  }
  setTimeout(load, 3000);
}

$("signin").addEventListener("submit", (ev) => {
  ev.preventDefault();
  token = $("token").value;
  sessionStorage.setItem("token", token);
  load();
});
if (token) load();
