/* The tournament page and its OBS overlay, followed live. The server sends the store's
   version over Server-Sent Events whenever anything is entered; the page then fetches
   itself again and swaps its content (one rendering, the server's), the overlay fetches
   the standings. A referee's confirm button posts to the API with the page's CSRF token. */
"use strict";

function followTournament(tid, onChange) {
  let seen = null;
  const es = new EventSource(`/api/tournaments/${tid}/stream`);
  es.addEventListener("version", e => {
    const version = JSON.parse(e.data);
    if (seen !== null && version !== seen) onChange(version);
    seen = version;
  });
  return es;
}

/* The page's one way to redraw itself (``tournamentPage`` makes it coalesced): a referee's
   write and the stream's news share it, so an older fetch never lands after a newer one and
   puts back a state already changed. */
let redraw = reloadTournament;

async function reloadTournament() {
  const html = await (await fetch(location.href, {cache: "no-store"})).text();
  const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("tournament");
  const root = document.getElementById("tournament");
  if (fresh && root) {
    root.replaceWith(fresh);
    bindConfirm(fresh);
  }
}

/* A referee's write through the API: on success the page redraws, on a refusal it shows
   the message (both languages) and the button can be pressed again. */
function refereePost(root, button, path, body) {
  button.addEventListener("click", async () => {
    button.disabled = true;
    const answer = await fetch(`/api/tournaments/${root.dataset.tid}/${path}?lang=${LANG}`, {
      method: "POST", headers: {"Content-Type": "application/json", "X-CSRF-Token": root.dataset.csrf},
      body: JSON.stringify(body(button))});
    if (!answer.ok) {
      const error = document.getElementById("t-error");
      error.textContent = (await answer.json()).error;
      error.hidden = false;
      button.disabled = false;
      return;
    }
    await redraw();
  });
}

function bindConfirm(root) {
  root.querySelectorAll("button.t-confirm").forEach(button => refereePost(root, button,
    `results/${button.dataset.table}/confirm`, b => ({round: Number(b.dataset.round), entry: Number(b.dataset.entry)})));
  root.querySelectorAll("button.t-draw").forEach(button => refereePost(root, button, "draws", () => ({})));
}

/* Changes come in bursts (a round's results): one fetch at a time, and at most one more
   after it, whatever the number of changes meanwhile. */
function coalesced(fetchOnce) {
  let running = false, again = false;
  return async function run() {
    if (running) { again = true; return; }
    running = true;
    try { await fetchOnce(); } finally { running = false; }
    if (again) { again = false; run(); }
  };
}

function tournamentPage() {
  const root = document.getElementById("tournament");
  if (!root) return;
  redraw = coalesced(reloadTournament);
  bindConfirm(root);
  followTournament(root.dataset.tid, redraw);
}

/* The overlay: `top` rows a page, pages turning every `seconds`. */
function tournamentOverlay(tid, top, seconds) {
  let rows = [], columns = [], page = 0;
  const board = document.getElementById("board");
  const shown = ["rank", "pair", "points"];
  function draw() {
    const pages = Math.max(1, Math.ceil(rows.length / top));
    page %= pages;
    const extra = columns.filter(c => !["rank", "pair", "name", "points", "played", "group", "lot", "reached"].includes(c)).slice(0, 1);
    const head = [...shown, ...extra].map(c => `<th class="c-${c}">${esc(T["col." + c])}</th>`).join("");
    const body = rows.slice(page * top, page * top + top).map(r => `<tr>${[...shown, ...extra].map(c =>
      `<td class="c-${c}">${esc(c === "pair" ? r.name : r[c])}</td>`).join("")}</tr>`).join("");
    const foot = pages > 1 ? `<div class="ov-page">${esc(T["t.page_of"].replace("{n}", page + 1).replace("{of}", pages))}</div>` : "";
    board.innerHTML = `<div class="ov-title">${esc(T["t.standings"])}</div><table>${head ? `<thead><tr>${head}</tr></thead>` : ""}<tbody>${body}</tbody></table>${foot}`;
    board.dataset.page = String(page + 1);
  }
  async function load() {
    const data = await (await fetch(`/api/tournaments/${tid}/standings`, {cache: "no-store"})).json();
    rows = data.rows; columns = data.columns;
    draw();
  }
  load();
  followTournament(tid, coalesced(load));
  setInterval(() => { page += 1; draw(); }, seconds * 1000);
}

document.addEventListener("DOMContentLoaded", tournamentPage);
