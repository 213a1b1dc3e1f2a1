// tricktable scoreboard: the addresses panel of the TV (/tv) under `tricktable up`: where the
// TV and the players' phone page (/seat) are, each with its QR code (the console's address is
// the director's, never on the room's TV), from
// /api/addresses (empty, and no panel, when the scoreboard runs without `up`); ?addresses=0
// hides it. Loaded after app.js (el).
"use strict";

(async () => {
  if (new URLSearchParams(location.search).get("addresses") === "0") return;
  let places = [];
  try {
    const response = await fetch("/api/addresses");
    if (response.ok) places = await response.json();
  } catch (_error) {
    return;
  }
  if (!places.length) return;
  const panel = el("aside", { class: "addresses", id: "addresses", "aria-label": "addresses" });
  for (const place of places) {
    panel.append(el("figure", { class: "address", "data-what": place.what },
      el("img", { src: place.qr, alt: `QR code of ${place.url}`, width: 96, height: 96 }),
      el("figcaption", {}, el("b", { text: place.what }), " ", el("span", { text: place.url }))));
  }
  document.body.append(panel);
})();
