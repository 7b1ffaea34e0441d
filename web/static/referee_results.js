/* The console's tournament results, loaded where the database holds a tournament (TOURNAMENT,
   its id): the current round's provisional results (待确认) as items of the queue,
   after the hall's, each confirmed with Enter or a tap through the tournament's API as the
   tournament page confirms it (POST /api/tournaments/<id>/results/<table>/confirm with the
   round and the entry shown, so a result changed since is refused); above the queue the
   round: its tables not finished, and once every result is final the button that draws
   the next round (POST /api/tournaments/<id>/draws). Kept live over the tournament's stream:
   a result confirmed at one console leaves every other. Uses state, render, forget, alerts,
   fill, clock and CSRF from referee.js, coalesced from tournament.js, esc and levelName from
   live.js. */
"use strict";

const tournament = {data: null};

/* The round's provisional results, table by table, as queue items. */
function resultItems(data) {
  const round = data.draw.round;
  return data.draw.tables.filter(line => line.state === "provisional").map(line => ({
    key: `result:${round}:${line.table}`, kind: "result", round, number: line.table, live: line.live,
    ns: line.ns, ew: line.ew, result: line.result, names: data.names}));
}

function resultHTML(it) {
  const r = it.result;
  const pair = p => `<span class="t-pair${r.winner === p ? " won" : ""}">${esc(p)} ${esc(it.names[p] || "")}</span>`;
  const score = r.reason === "forfeit" ? T.forfeit : `${levelName(r.levels[it.ns] || "")} : ${levelName(r.levels[it.ew] || "")}`;
  const evidence = [
    it.live ? `<a href="/table/${encodeURIComponent(it.live)}?lang=${LANG}" target="_blank">${T["t.table_page"]}</a>` : "",
    r.source ? `<a href="/api/tournaments/${TOURNAMENT}/results/${r.entry}/record" target="_blank">${T["t.record"]}</a>` : ""];
  return `<div class="item-head">
      <span class="kind kind-result">${T["t.kind_result"]}</span>
      <b class="where">${esc(fill(T["t.round_table"], {round: it.round, table: it.number}))}</b>
      <time>${clock(Date.parse(r.entered_at) / 1000)}</time>
    </div>
    <div class="item-text">${T["col.ns"]} ${pair(it.ns)} <b class="t-score">${score}</b> ${T["col.ew"]} ${pair(it.ew)}
      · ${T["col.points"]} ${r.scores[it.ns].points} : ${r.scores[it.ew].points}</div>
    <div class="item-detail result-detail">
      <dl>
        <dt>${T["t.evidence"]}</dt><dd>${evidence.filter(Boolean).join(" · ")}
          <span class="muted">${esc(fill(T["t.entered"], {by: r.entered_by, source: r.source || ""}))}</span></dd>
        ${it.open ? `<dt></dt><dd class="error">${esc(fill(T["t.open_items"], {n: it.open}))}</dd>` : ""}
      </dl>
      <div class="item-acts"><button type="button" data-do="confirm" class="primary"><kbd>Enter</kbd> ${T["t.confirm"]}</button></div>
    </div>`;
}

/* The round above the queue: how many results wait and which tables still play; the next
   round's button only once every result is final. */
function drawRound() {
  const panel = document.getElementById("round");
  const data = tournament.data, t = data.tournament, lines = data.draw.tables;
  const count = state => lines.filter(line => line.state === state).length;
  const playing = lines.filter(line => line.state === "playing").map(line => {
    const name = esc(fill(T["t.table_no"], {table: line.table}));
    return line.live ? `<a href="/table/${encodeURIComponent(line.live)}?lang=${LANG}">${name}</a>` : name;
  });
  const done = t.drawn && !count("playing") && !count("provisional");
  const ready = (!t.drawn || done) && t.drawn < t.rounds;
  panel.innerHTML = `<h2><a href="/tournament/${TOURNAMENT}?lang=${LANG}">${esc(t.name)}</a>
      ${t.drawn ? esc(fill(T["t.round_of"], {n: t.drawn, of: t.rounds})) : T["t.no_draw"]}</h2>
    ${t.drawn ? `<p>${esc(fill(T["t.queue"], {provisional: count("provisional"), playing: count("playing")}))}</p>` : ""}
    ${playing.length ? `<p class="not-finished">${fill(T["t.not_finished"], {tables: playing.join(LANG === "zh" ? "、" : ", ")})}</p>` : ""}
    ${done ? `<p class="all-final">${t.drawn < t.rounds ? T["t.all_final"] : esc(fill(T["t.last_final"], {n: t.rounds}))}</p>` : ""}
    ${ready ? `<button type="button" id="draw-next">${esc(fill(T["t.draw_next"], {n: t.drawn + 1}))}</button>` : ""}`;
  panel.hidden = false;
  document.getElementById("draw-next")?.addEventListener("click", ev => drawNext(ev.target, t.drawn + 1));
}

const reloadRound = coalesced(async () => {
  const r = await fetch(`/api/tournaments/${TOURNAMENT}`, {cache: "no-store"});
  if (!r.ok) return;
  tournament.data = await r.json();
  state.results = resultItems(tournament.data);
  drawRound();
  render();
});

/* A write to the tournament; a refusal is thrown with the desk's words (both languages,
   the referee's first). */
async function tournamentPost(path, body) {
  const r = await fetch(`/api/tournaments/${TOURNAMENT}/${path}?lang=${LANG}`, {
    method: "POST", headers: {"Content-Type": "application/json", "X-CSRF-Token": CSRF}, body: JSON.stringify(body)});
  if (!r.ok) throw new Error((await r.json()).error || r.statusText);
}

function refused(exc) {
  const error = document.getElementById("act-error");
  error.textContent = fill(T.act_failed, {why: exc.message});
  error.hidden = false;
}

async function confirmResult(it) {
  document.getElementById("act-error").hidden = true;
  try {
    await tournamentPost(`results/${it.number}/confirm`, {round: it.round, entry: it.result.entry});
  } catch (exc) {
    refused(exc);
    reloadRound();  // the result as it stands now
    return;
  }
  forget(it);
  reloadRound();
}

async function drawNext(button, round) {
  document.getElementById("act-error").hidden = true;
  button.disabled = true;
  try {
    await tournamentPost("draws", {round});  // the round shown: a second console's click is refused, not a round more
  } catch (exc) {
    refused(exc);
    button.disabled = false;
    return;
  }
  reloadRound();
}

document.addEventListener("DOMContentLoaded", () => {
  reloadRound();
  new EventSource(`/api/tournaments/${TOURNAMENT}/stream`).addEventListener("version", ev => {
    if (!tournament.data || JSON.parse(ev.data) !== tournament.data.version) reloadRound();
  });
});
