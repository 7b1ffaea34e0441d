/* The tournament page and its OBS overlay, followed live over Server-Sent Events. The
   public's page and the overlay ask the stream to push what changed — the page's content in
   its language (one rendering, the server's, made once per change for every viewer), the
   standings — and swap it in: nothing is fetched again, so a thousand viewers see a result
   as soon as the stream tells them. A referee's page (its buttons and CSRF token are its
   own) hears the new version and fetches itself again. A referee's confirm button posts to
   the API with the page's CSRF token. */
"use strict";

/* Follow the tournament: `push` ({what: "page" | "standings", since?, show(data)}) asks the
   stream for `what` itself whenever it changes (and now, unless the page shows `since`);
   without it, `onChange` is called on each new version. */
function followTournament(tid, onChange, push) {
  let seen = null;
  let query = "";
  if (push) {
    const args = {push: push.what, lang: LANG};
    if (push.since) args.since = push.since;
    query = "?" + new URLSearchParams(args);
  }
  const es = new EventSource(`/api/tournaments/${tid}/stream${query}`);
  es.addEventListener("version", e => {
    const version = JSON.parse(e.data);
    if (!push && seen !== null && version !== seen) onChange(version);
    seen = version;
  });
  if (push) es.addEventListener(push.what, e => push.show(JSON.parse(e.data)));
  return es;
}

/* The page's one way to redraw itself (``tournamentPage`` makes it coalesced): a referee's
   write and the stream's news share it, so an older fetch never lands after a newer one and
   puts back a state already changed. */
let redraw = reloadTournament;

async function reloadTournament() {
  showTournament(await (await fetch(location.href, {cache: "no-store"})).text());
}

/* Swap in the page's content (#tournament) out of `html`: the whole page fetched, or the
   content the stream pushed. */
function showTournament(html) {
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

/* The server sends the buttons disabled (a press before this script binds them would be
   lost without a word): bound, a confirm button and a draw button the round allows
   (`data-ready`) can be pressed. */
function bindConfirm(root) {
  root.querySelectorAll("button.t-confirm").forEach(button => {
    refereePost(root, button, `results/${button.dataset.table}/confirm`,
      b => ({round: Number(b.dataset.round), entry: Number(b.dataset.entry)}));
    button.disabled = false;
  });
  root.querySelectorAll("button.t-draw").forEach(button => {
    refereePost(root, button, "draws", () => ({}));
    button.disabled = !("ready" in button.dataset);
  });
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
  if (root.dataset.csrf) followTournament(root.dataset.tid, redraw);  // a referee's page
  else followTournament(root.dataset.tid, null, {what: "page", since: root.dataset.version, show: showTournament});
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
  let pushed = false;
  function show(data) {
    rows = data.rows; columns = data.columns;
    draw();
  }
  /* The standings now (the stream pushes them too: a fetch answered after a push is older) */
  fetch(`/api/tournaments/${tid}/standings`, {cache: "no-store"}).then(r => r.json())
    .then(data => { if (!pushed) show(data); });
  followTournament(tid, null, {what: "standings", show: data => { pushed = true; show(data); }});
  setInterval(() => { page += 1; draw(); }, seconds * 1000);
}

document.addEventListener("DOMContentLoaded", tournamentPage);
