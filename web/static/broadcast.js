/* The overlay's broadcast parts (docs/broadcast.md): each new highlight as an animation,
   one after another, and the commentary ticker, both from the table's snapshot
   (snapshot.highlights, snapshot.ticker: rulebook/commentary.py). What happened before
   the page opened is no news: a page (re)loaded by OBS animates only what comes after. */
"use strict";

const BROADCAST = {seen: null, queue: [], showing: false, lines: null, keep: 3};
const HIGHLIGHT_QUEUE = 3;  // a burst shows its newest few, not a backlog

function renderBroadcast(s) {
  const found = s.highlights || [];
  const last = found.length ? found[found.length - 1].seq : 0;
  if (BROADCAST.seen === null) {
    BROADCAST.seen = last;
  } else {
    for (const h of found) if (h.seq > BROADCAST.seen) BROADCAST.queue.push(h);
    BROADCAST.seen = Math.max(BROADCAST.seen, last);
    BROADCAST.queue = BROADCAST.queue.slice(-HIGHLIGHT_QUEUE);
    showHighlight();
  }
  renderTicker(s.ticker || []);
}

function showHighlight() {
  if (BROADCAST.showing || !BROADCAST.queue.length) return;
  const h = BROADCAST.queue.shift(), box = document.getElementById("o-highlight");
  BROADCAST.showing = true;
  const cards = h.play ? `<span class="hl-cards">${h.play[2].map(c => cardImg(c)).join("")}</span>` : "";
  box.innerHTML = `<div class="hl hl-${esc(h.kind)}" data-seq="${h.seq}" data-kind="${esc(h.kind)}">
    <b class="hl-title">${esc(h.title[LANG])}</b>${cards}<span class="hl-line">${esc(h.line[LANG])}</span></div>`;
  box.firstElementChild.addEventListener("animationend", ev => {
    if (ev.target !== box.firstElementChild) return;
    box.innerHTML = "";
    BROADCAST.showing = false;
    showHighlight();
  });
}

function renderTicker(lines) {
  const keep = parseInt(getComputedStyle(document.getElementById("o-ticker")).getPropertyValue("--lines")) || 3;
  const shown = lines.slice(-keep), before = BROADCAST.lines;
  BROADCAST.lines = new Set(shown.map(l => `${l.seq}:${l.kind}:${l.en}`));
  document.getElementById("o-ticker").innerHTML = shown.map(l => {
    const fresh = before !== null && !before.has(`${l.seq}:${l.kind}:${l.en}`);
    return `<p class="tk-line tk-${esc(l.kind)}${fresh ? " tk-new" : ""}" data-seq="${l.seq}">${esc(l[LANG])}</p>`;
  }).join("");
}
