// The phones page (/phones, behind the admin token): every seat the host reads by phone, the
// phone paired to it, a QR code per seat to pair one, and Revoke. docs/phones.md.
"use strict";

let token = sessionStorage.getItem("token") || "";
// The console's sign-in (console.js: the token and the name in this tab's sessionStorage)
// signs the director in here too: the console serves this page beside its own.
let by = localStorage.getItem("director") || sessionStorage.getItem("by") || "";
const $ = (id) => document.getElementById(id);

async function call(path, body) {
  const r = await fetch(path, {
    method: body ? "POST" : "GET",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text == null ? "–" : String(text);
  return td;
}

function button(text, action) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.addEventListener("click", action);
  return b;
}

function say(text) {
  $("answer").textContent = text;
  $("answer").hidden = !text;
}

async function pair(seat) {
  try {
    const made = await call("/api/phones/pair", { table: seat.table, seat: seat.seat, by });
    $("qr-where").textContent = made.where;
    $("qr").src = made.qr;
    $("qr-url").href = made.url;
    $("qr-url").textContent = made.url;
    $("qr-box").hidden = false;
    $("qr-box").dataset.pairing = String(made.id);
    say("");
    refresh();
  } catch (err) { say(err.message); }
}

async function revoke(seat) {
  if (!window.confirm(`Revoke the phone at ${seat.where}? It is refused from its next card.`)) return;
  try {
    await call(`/api/phones/${seat.pairing.id}/revoke`, {});
    say(`${seat.where}: pairing revoked`);
    refresh();
  } catch (err) { say(err.message); }
}

function row(seat) {
  const tr = document.createElement("tr");
  tr.dataset.table = seat.table;
  tr.dataset.seat = String(seat.seat);
  const p = seat.pairing;
  const phone = p ? (p.phone || "QR code shown, no phone yet") : "no phone";
  const state = p && p.phone ? (seat.online ? "reading" : "offline") : "–";
  const battery = seat.battery == null ? null : `${seat.battery} %`;
  const actions = document.createElement("td");
  actions.append(button(p && p.phone ? "New QR code" : "QR code", () => pair(seat)));
  if (p) actions.append(button("Revoke", () => revoke(seat)));
  tr.append(cell(seat.where), cell(phone), cell(state), cell(battery), actions);
  return tr;
}

async function refresh() {
  try {
    const { seats } = await call("/api/phones");
    $("seats").querySelector("tbody").replaceChildren(...seats.map(row));
    $("seats").hidden = !seats.length;
    $("none").hidden = seats.length > 0;
    $("signin").hidden = true;
    $("status").textContent = "signed in";
  } catch (err) {
    $("signin").hidden = false;
    $("signin-error").textContent = err.message;
    $("signin-error").hidden = false;
  }
}

$("signin").addEventListener("submit", (e) => {
  e.preventDefault();
  token = $("token").value;
  by = $("by").value.trim();
  sessionStorage.setItem("token", token);
  localStorage.setItem("director", by);
  refresh();
});
$("qr-close").addEventListener("click", () => { $("qr-box").hidden = true; });
$("by").value = by;
if (token && by) refresh();
setInterval(() => { if (token && $("signin").hidden) refresh(); }, 3000);
