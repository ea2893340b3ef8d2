// tablestream's reference client: open a table against bots, play it to the end by
// selecting cards and pressing the actions the rules allow, then step through its
// replay. It speaks only the public API, as any third-party client would.
//
// This module is the frame every game shares: the seats, whose turn, the countdowns,
// the action bar, the log, the result and the replay. What a game's table looks like,
// which actions a selection allows and how its events read are in games/<game>.js.
import { api, command, events, offered } from "./api.js";
import { el } from "./cards.js";
import { countdown } from "./countdown.js";
import { follow } from "./live.js";
import { forGame } from "./generic.js";
import { logItem, serviceLine } from "./log.js";
import * as players from "./players.js";

const $ = (id) => document.getElementById(id);
const modules = {}; // game name -> its table module, loaded on first use
const BOT_NAMES = ["Bea", "Cai", "Dev", "Eli", "Fay", "Gus", "Hal"];

// The table being played: which game, our seat's token, the last view drawn, what is
// selected. Only one table at a time; `id` changing stops the old one's updates.
const table = { kind: null, id: null, token: null, seat: 0, view: null, logged: 0,
  selected: new Set(), choice: {}, basis: null, busy: false, game: null, rematch: null };
let replay = { steps: [], version: 0, answer: null };

// A game without a table module of its own (games/<game>.js: a game added by its
// package alone) gets the plain one of generic.js.
async function gameModule(kind) {
  modules[kind] ??= await import(`./games/${kind}.js`).catch(() => forGame(kind));
  return modules[kind];
}

// --- opening a table

async function setUp() {
  const { games, bots, provisional } = await offered();
  fill($("game"), games);
  fill($("bot"), bots);
  fill($("board-game"), games);
  leaderboard.provisional = provisional;
  $("start").onclick = () => start().catch(report);
  // Each game's options for a short game, once its module has loaded.
  const preset = async () => {
    const kind = $("game").value;
    const game = await gameModule(kind);
    if (kind !== $("game").value) return; // another game was chosen meanwhile
    $("options").value = JSON.stringify(game.preset ?? {});
    document.body.dataset.preset = kind;
  };
  $("game").onchange = () => preset().catch(report);
  await preset();
  await showBoard(); // the first game's board, to see where people stand
}

function fill(select, values) {
  select.replaceChildren(...values.map((v) => new Option(v, v)));
}

// Seat 0 is ours: the signed-in player's, or a name's; then the players invited (by
// id), then bots.
function seatsWithBots(count, invited = []) {
  const bot = $("bot").value;
  const bots = Array.from({ length: count }, (_, i) => ({ bot, name: BOT_NAMES[i] }));
  const me = players.current() ? { player: "me" } : { name: $("name").value || "you" };
  return [me, ...invited.map((id) => ({ player: id })), ...bots];
}

// The ids typed into "Invite players", when signed in (only a player invites).
function invitedIds() {
  if (!players.current()) return [];
  return $("invite").value.split(/[\s,]+/).filter(Boolean);
}

async function start() {
  const options = JSON.parse($("options").value || "{}");
  if (players.current() && $("rated").checked) options.rated = true;
  const body = {
    game: $("game").value,
    seats: seatsWithBots(Number($("bots").value), invitedIds()),
    options,
  };
  const token = players.current()?.token;
  await sit(body.game, await api("POST", "/v1/games", { body, token }));
}

// Take seat 0 of a game just created (or forked), or `seat` of one of my games, and
// follow it until it ends. A player's token acts for every seat the player holds.
async function sit(kind, created, seat = 0) {
  const token = created.seats?.[seat]?.token ?? players.current()?.token;
  // The creator's token (in the answer that made the game) may call it off while it
  // waits for players.
  Object.assign(table, { kind, id: created.id, token, seat, view: null, logged: 0,
    selected: new Set(), choice: {}, basis: null, rematch: null,
    rated: false, ratingAsked: false, ratingChange: null, creator: created.creator_token ?? null, game: await gameModule(kind) });
  document.body.dataset.game = kind;
  $("title").textContent = table.game.title;
  $("game-id").textContent = created.id;
  $("log").replaceChildren();
  $("setup").hidden = true;
  $("my-games").hidden = true;
  $("leaderboard").hidden = true;
  $("table").hidden = false;
  $("replay").hidden = true;
  $("result").hidden = true;
  $("rematch").hidden = true;
  // Each sitting is followed by its own updates only: leaving the table (or sitting at
  // it again from my games) ends the old one's.
  const sitting = (table.sitting = (table.sitting ?? 0) + 1);
  const here = () => sitting === table.sitting;
  await follow({ kind, id: created.id }, table.token, (view, news) => here() && show(view, news), here);
  if (here() && table.view?.status === "finished") await openReplay();
}

// Views arrive from the live updates and from our own commands: drawn one at a time,
// an older one arriving late is dropped.
let drawing = Promise.resolve();
function show(view, news = null) {
  drawing = drawing.then(() => draw(view, news)).catch(report);
  return drawing;
}

// `news`: the events that came with the view (the WebSocket pushes them), or null: then
// they are read here, after the last one logged.
async function draw(view, news) {
  if (view.id !== table.id || (table.view && view.version < table.view.version)) return;
  const fresh = news ?? (await events(table.id, table.token, table.logged)).events;
  const name = names(view);
  for (const event of fresh.filter((e) => e.version > table.logged)) {
    const text = serviceLine(event, name) ?? table.game.line(event, name, table.seat);
    if (text) $("log").prepend(logItem(text, event.version));
    if (event.type === "rematch_offered") table.rematch = event.game_id;
    if (event.type === "game_created" && event.rated) table.rated = true;
  }
  table.logged = Math.max(table.logged, fresh.at(-1)?.version ?? 0);
  table.view = view;
  // A game waiting for players has no cards yet (its state is null).
  const basis = view.state ? table.game.selectionBasis(view) : null;
  if (basis !== table.basis) Object.assign(table, { basis, selected: new Set(), choice: {} });
  render();
}

// The whole table again from the last view and the selection: cheap at this size, and
// nothing can drift from what the view says.
function render() {
  const view = table.view;
  const focus = focused();
  document.body.dataset.status = view.status;
  document.body.dataset.version = view.version;
  const ui = seatUi(view);
  $("status").replaceChildren(...statusLine(view, ui));
  $("board").replaceChildren(view.state ? table.game.board(view, ui) : waitingBoard(view, ui));
  renderActions(view, ui);
  $("call-off").hidden = !(view.status === "waiting" && table.creator);
  if (view.status === "finished") {
    showResult(view, ui);
    showRematch();
  }
  refocus(focus);
}

// A redraw replaces the cards and buttons: the keyboard's place is kept by the card's
// key or the action's id, or moves to the first action, then the first card.
function focused() {
  const element = document.activeElement;
  if (!element?.closest("#board, #actions")) return null;
  return { key: element.dataset.key, action: element.dataset.action, name: element.name };
}

function refocus(focus) {
  if (!focus) return;
  const at = (selector) => document.querySelector(selector);
  const target = (focus.key && at(`#board [data-key="${CSS.escape(focus.key)}"]`))
    || (focus.action && at(`#actions [data-action="${CSS.escape(focus.action)}"]:not(:disabled)`))
    || (focus.name && (at(`#actions [name="${CSS.escape(focus.name)}"]:checked`)
      || at(`#actions [name="${CSS.escape(focus.name)}"]`)))
    || at("#actions button:not(:disabled)") || at("#board button.card");
  target?.focus({ preventScroll: true });
}

function seatUi(view) {
  return {
    me: table.seat,
    name: names(view),
    selected: table.selected,
    choice: table.choice,
    readonly: view.status !== "active",
    toggle: (key, single = false) => {
      const had = table.selected.has(key);
      if (single) table.selected.clear();
      if (had) table.selected.delete(key);
      else table.selected.add(key);
      table.choice = {};
      render();
    },
    choose: (name, value) => {
      table.choice[name] = value;
      render();
    },
  };
}

/** Seat names as people read them: "Ana", and "you" never replaces a name. */
function names(view) {
  return (seat) => view.seats[seat]?.name ?? `seat ${seat}`;
}

// A table still waiting: who is seated, whom it waits for (an invitation not yet
// accepted, an open seat).
function waitingBoard(view, ui) {
  const seats = view.seats.map((seat, i) => {
    const state = seat.invited ? "invited, not yet accepted" : seat.open ? "an open seat"
      : seat.bot ? "a bot" : "seated";
    return el("li", "", el("strong", "", seat.open ? `seat ${i}` : ui.name(i)), ` (${state})`);
  });
  return el("div", "board", el("div", "middle",
    el("p", "say", "The game starts once every invitation is accepted and every seat is taken.")),
  el("ul", "waiting", ...seats));
}

function statusLine(view, ui) {
  if (view.status === "finished") return [el("strong", "", "Game over")];
  if (view.status === "waiting") {
    const awaited = view.seats.filter((s) => s.invited || s.open).map((s) =>
      (s.open ? "someone to sit down" : ui.name(s.seat)));
    return [el("strong", "", `Waiting for ${awaited.join(", ") || "the game to start"}`)];
  }
  if (view.status === "cancelled") return [el("strong", "", "This table was called off.")];
  if (view.status !== "active") return [el("span", "", view.status)];
  const parts = [];
  const acting = view.to_act;
  const yours = acting.includes(table.seat);
  parts.push(el("strong", yours ? "yours" : "", yours
    ? (acting.length > 1 ? "Your move (and others')" : "Your turn")
    : `${acting.map(ui.name).join(", ") || "Nobody"} to play`));
  acting.forEach((seat) => {
    const deadline = view.deadlines?.[seat];
    if (deadline) parts.push(" ", countdown(deadline, `time left for ${ui.name(seat)}`));
  });
  return parts;
}

// The action bar: the game's actions for this selection, enabled only when the view's
// `legal` list holds the exact command; a disabled one says why in the game's words.
function renderActions(view, ui) {
  const bar = $("actions");
  if (ui.readonly) {
    bar.replaceChildren();
    $("why").textContent = "";
    return;
  }
  const { buttons = [], controls = [], why = "" } = table.game.actions(view, ui);
  const row = el("div", "buttons");
  for (const action of buttons) {
    const button = el("button", `action ${action.kind ?? ""}`, action.label);
    button.type = "button";
    button.dataset.action = action.id ?? action.label;
    if (action.command) button.onclick = () => send(action.command);
    else button.disabled = true;
    if (action.aria) button.setAttribute("aria-label", action.aria);
    row.append(button);
  }
  if (buttons.length || controls.length) bar.replaceChildren(...controls, row);
  else bar.replaceChildren(); // nothing to do now: no bar over the table
  const reason = why || buttons.find((b) => !b.command && b.why)?.why || "";
  $("why").textContent = reason;
}

async function send(body) {
  if (table.busy) return; // one command at a time, as a person presses one button
  table.busy = true;
  document.body.dataset.busy = "1";
  let moved;
  const seen = table.view.version;
  try {
    moved = await command(table, table.token, body);
  } catch (error) {
    if (!error.code) report(error);
    else await refused(error, seen);
  }
  table.busy = false;
  delete document.body.dataset.busy;
  if (moved) await show(moved.view); // read-your-writes: no second request
}

// A refused command: when the game had moved past the view it was chosen on (Alien's
// CAPTURED! race, a duelist choosing at the same moment), the table moved first and the
// new view is drawn; otherwise the page offered what the rules refuse, and says so.
async function refused(error, seen) {
  const now = await api("GET", `/v1/${table.kind}/${table.id}/view`, { token: table.token }).catch(() => null);
  if (now && now.version > seen) {
    $("log").prepend(el("li", "raced", `The table moved first: ${error.message}`));
    await show(now);
  } else {
    report(error, "refused");
  }
}

function showResult(view, ui) {
  const { winners = [], scores = [] } = view.result ?? {};
  const rows = view.seats.map((seat, i) => el("tr", winners.includes(i) ? "winner" : "",
    el("th", "", ui.name(i), winners.includes(i) ? " ★" : ""), el("td", "", String(scores[i] ?? ""))));
  const headline = winners.includes(table.seat) ? "You won!"
    : `${winners.map(ui.name).join(" and ")} won.`;
  $("result").replaceChildren(el("h3", "", headline),
    el("table", "scores", el("thead", "", el("tr", "", el("th", "", "player"), el("th", "", "score"))),
      el("tbody", "", ...rows)));
  if (table.ratingChange) $("result").append(el("p", "rating-change", table.ratingChange));
  $("result").hidden = false;
  if (table.rated && !table.ratingAsked) {
    table.ratingAsked = true;
    showRatingChange(table.id).catch(report);
  }
}

// A rated game's end moves my rating: the history's entry for this game, once the
// projector has folded it (a moment after the game ends).
async function showRatingChange(gameId) {
  const player = players.current();
  if (!player) return;
  for (let tries = 0; tries < 20 && table.id === gameId; tries += 1) {
    const { history } = await api("GET", `/v1/players/${player.id}/ratings/${table.kind}/history`);
    const entry = history.find((h) => h.game_id === gameId);
    if (entry && table.id === gameId) {
      table.ratingChange = `Your ${table.kind} rating: ${entry.before} → ${entry.after}`
        + ` (place ${entry.place} of ${entry.players}).`;
      $("result").append(el("p", "rating-change", table.ratingChange));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

// --- the rematch: the same seats again. The one who asks is seated; every other
// player is invited, and sees the old game's `rematch_offered` (the log, read again
// when the inbox says something happened).

function showRematch() {
  const offered = table.rematch;
  const player = players.current();
  $("rematch-say").textContent = offered
    ? "A rematch is offered: the same seats, a new shuffle." : "";
  $("rematch-ask").hidden = Boolean(offered);
  $("rematch-join").hidden = !offered;
  $("rematch-decline").hidden = !offered || !player;
  $("rematch").hidden = false;
}

// Asked with the player's token when the seat is the player's: asked with the seat's
// token, the rematch would invite every player, the one asking too.
async function askRematch() {
  const player = players.current();
  const mine = player && table.view.seats[table.seat]?.player === player.id;
  const token = mine ? player.token : table.token;
  const answer = await api("POST", `/v1/games/${table.id}/rematch`, { token });
  await sit(table.kind, answer, table.seat);
}

// Join the rematch offered: a player accepts its invitation (the one who asked holds
// its seat already: not_invited); a named seat asks again, which answers the same new
// game with the seat's new token.
async function joinRematch() {
  const player = players.current();
  if (!player) return askRematch();
  const id = table.rematch;
  const seats = [];
  seats[table.seat] = await players.accept(player, id, table.seat).catch((error) => {
    if (error.code === "not_invited") return {};
    throw error;
  });
  await sit(table.kind, { id, seats }, table.seat);
}

async function declineRematch() {
  await players.decline(players.current(), table.rematch, table.seat);
  $("rematch-say").textContent = "You declined the rematch.";
  for (const id of ["rematch-join", "rematch-decline"]) $(id).hidden = true;
}

$("call-off").onclick = () =>
  api("POST", `/v1/games/${table.id}/cancel`, { token: table.creator }).catch(report);
$("rematch-ask").onclick = () => askRematch().catch(report);
$("rematch-join").onclick = () => joinRematch().catch(report);
$("rematch-decline").onclick = () => declineRematch().catch(report);

// --- the replay: any version of the finished game, as any seat saw it then

async function openReplay() {
  const seats = table.view.seats.map((s) => new Option(s.name, s.seat));
  $("replay-seat").replaceChildren(new Option("a spectator", ""), ...seats,
    new Option("everyone (all hands)", "everyone"));
  $("replay-seat").value = String(table.seat);
  $("replay-export").href = `/v1/games/${table.id}/export`;
  $("replay").hidden = false;
  await load(table.view.version);
}

async function load(version) {
  const seat = $("replay-seat").value;
  const query = seat === "everyone" ? "everyone=true" : seat === "" ? "" : `seat=${seat}`;
  const answer = await api("GET", `/v1/games/${table.id}/replay?at=${version}&${query}`);
  const before = Math.max(0, ...answer.steps.filter((step) => step < answer.version));
  replay = { steps: answer.steps, version: answer.version, answer };
  Object.assign(document.body.dataset, { replayVersion: answer.version, replaySeat: seat });
  $("replay-version").value = answer.version;
  const index = answer.steps.indexOf(answer.version) + 1;
  $("replay-shown").textContent =
    `version ${answer.version} (step ${index} of ${answer.steps.length}), ${answer.view.status}`;
  const name = names(answer.view);
  const ui = { me: answer.view.seat, name, selected: new Set(), choice: {}, readonly: true,
    toggle() {}, choose() {} };
  const hands = (answer.everyone ?? []).filter((v) => v.seat !== null).map((v) =>
    el("div", "everyone", el("h4", "", `${name(v.seat)} holds`), table.game.privateCards(v.state)));
  $("replay-board").replaceChildren(table.game.board(answer.view, ui), ...hands);
  const fresh = answer.events.filter((event) => event.version > before);
  $("replay-events").replaceChildren(...fresh.flatMap((event) => {
    const text = serviceLine(event, name) ?? table.game.line(event, name, answer.view.seat);
    return text ? [logItem(text, event.version)] : [];
  }));
}

function step(by) {
  const { steps, version } = replay;
  const index = Math.min(steps.length - 1, Math.max(0, steps.indexOf(version) + by));
  return load(steps[index]).catch(report);
}

async function fork() {
  const bots = table.view.seats.length - 1;
  const body = { at: replay.version, seats: seatsWithBots(bots) };
  const token = players.current()?.token;
  await sit(table.kind, await api("POST", `/v1/games/${table.id}/fork`, { body, token }));
}

function report(error, kind = "error") {
  const text = String(error.message ?? error);
  $("log").prepend(el("li", kind, kind === "refused" ? `Not accepted: ${text}` : text));
  $("why").textContent = text;
  $("setup-why").textContent = text;
}

$("replay-first").onclick = () => load(replay.steps[0]).catch(report);
$("replay-prev").onclick = () => step(-1);
$("replay-next").onclick = () => step(+1);
$("replay-last").onclick = () => load(replay.steps.at(-1)).catch(report);
$("replay-jump").onclick = () => load(Number($("replay-version").value)).catch(report);
$("replay-seat").onchange = () => load(replay.version).catch(report);
$("replay-fork").onclick = () => fork().catch(report);
$("again").onclick = () => {
  table.id = null;
  table.sitting = (table.sitting ?? 0) + 1; // stop following the table left
  Object.assign(document.body.dataset, { status: "", game: "" });
  for (const id of ["table", "replay"]) $(id).hidden = true;
  $("setup").hidden = false;
  $("leaderboard").hidden = false;
  showPlayer().catch(report);
};

// --- the player: a guest signed in here, my games (my turn first, invitations with
// their answers), my ratings and the leaderboard

async function showPlayer() {
  const player = players.current();
  $("signed-in").replaceChildren(...(player
    ? [`Signed in as ${player.name} (guest). Your id, to be invited: `, el("code", "", player.id)]
    : []));
  $("guest").hidden = Boolean(player);
  $("forget").hidden = !player;
  $("name").disabled = Boolean(player);
  for (const id of ["invite-label", "rated-label", "board-around-label"]) $(id).hidden = !player;
  if (player) $("name").value = player.name;
  if (!player) {
    $("my-games").hidden = true;
    quick.ticket = null;
    showQuick();
    return;
  }
  watch(player);
  if (!quick.ticket) await restoreTicket(player);
  const [{ games }, { ratings }] = await Promise.all([players.myGames(player),
    players.ratings(player.id)]);
  const items = games.map((game) => myGame(player, game));
  $("my-games-list").replaceChildren(...(items.length ? items : [el("li", "", "No games yet.")]));
  showRatings(ratings);
  $("my-games").hidden = false;
}

function myGame(player, game) {
  const others = game.others.map((o) => o.name ?? "an open seat").join(", ");
  const state = game.invited ? "invited" : game.my_turn ? "your turn"
    : game.status === "finished" ? "finished" : game.status;
  const button = (label, aria, onclick) => {
    const b = el("button", "action", label);
    b.type = "button";
    b.dataset.game = game.id;
    b.dataset.do = label.toLowerCase();
    b.setAttribute("aria-label", `${aria} ${game.game} with ${others}`);
    b.onclick = () => onclick().catch(report);
    return b;
  };
  const buttons = game.invited
    ? [button("Accept", "accept the invitation to", async () => {
      const seats = [];
      seats[game.seat] = await players.accept(player, game.id, game.seat);
      await sit(game.game, { id: game.id, seats }, game.seat);
    }),
    button("Decline", "decline the invitation to", async () => {
      await players.decline(player, game.id, game.seat);
      await showPlayer();
    })]
    : [button("Open", "open", () => sit(game.game, { id: game.id }, game.seat))];
  return el("li", `${game.my_turn ? "mine" : ""}${game.invited ? " invitation" : ""}`,
    el("strong", "", game.game), ` with ${others}`, el("span", "badge", state),
    game.my_turn && game.deadline ? countdown(game.deadline, "time left to act") : null,
    ...buttons);
}

// A rating below the documented count of rated games is provisional: marked in words,
// not by colour alone.
function ratingCell(rating, provisional) {
  return el("td", "", String(rating), ...(provisional
    ? [" ", el("span", "badge provisional", "provisional")] : []));
}

function showRatings(ratings) {
  const rows = ratings.map((r) => el("tr", "", el("td", "", r.game), el("td", "", r.variant),
    ratingCell(r.rating, r.provisional), el("td", "", String(r.games))));
  $("my-ratings").tBodies[0].replaceChildren(...rows);
  $("my-ratings").hidden = !rows.length;
  $("my-ratings-none").hidden = Boolean(rows.length);
}

// The leaderboard of one game: the window around me when signed in (and asked), else
// from the top; "Next page" follows the answer's cursor.
const leaderboard = { cursor: null, provisional: "" };

async function showBoard(more = false) {
  const game = $("board-game").value;
  const player = players.current();
  const around = Boolean(player) && $("board-around").checked && !more;
  const page = await players.leaderboard(game, { player: around ? player : null,
    cursor: more ? leaderboard.cursor : null });
  leaderboard.cursor = page.next_cursor;
  const rows = page.entries.map((entry) => {
    const mine = entry.player === player?.id;
    return el("tr", mine ? "mine" : "", el("td", "", String(entry.rank)),
      el("td", "", entry.name, mine ? " (you)" : ""), ratingCell(entry.rating, entry.provisional),
      el("td", "", String(entry.games)));
  });
  $("board-table").tBodies[0].replaceChildren(...rows);
  $("board-table").hidden = !rows.length;
  $("board-more").hidden = !page.next_cursor;
  const rated = around && !page.entries.some((e) => e.player === player.id)
    ? " You are not on it yet: play a rated game." : "";
  $("board-note").textContent = page.players === 0 ? `Nobody is on the ${game} board yet.`
    : `${page.players} players on the ${game} board (${page.variant} rules), ranked by `
      + `1000 + 40 × (μ − 3σ). Provisional: ${leaderboard.provisional}.${rated}`;
  document.body.dataset.board = `${game}:${page.entries.length}`;
}

$("board-show").onclick = () => showBoard().catch(report);
$("board-more").onclick = () => showBoard(true).catch(report);
$("board-game").onchange = () => showBoard().catch(report);

// One inbox long-poll per signed-in player: a new item (an invitation, a rematch, a
// game over) refreshes my games, and the finished table's log (a rematch offered).
let watching = null;

function watch(player) {
  if (watching === player.id) return;
  watching = player.id;
  const still = () => watching === player.id && players.current()?.id === player.id;
  players.watchInbox(player, onInbox, still).catch(report);
}

async function onInbox(items) {
  const matched = items.find((item) => item.kind === "matched"
    && item.ticket_id === quick.ticket?.id);
  if (matched) {
    quick.ticket = null;
    showQuick();
    // Not awaited: sitting lasts the whole game, and the inbox goes on meanwhile.
    sit(matched.game, { id: matched.game_id }, matched.seat).catch(report);
    return;
  }
  if (table.id && table.view?.status === "finished") await show(table.view);
  if (!$("setup").hidden) await showPlayer();
}

// --- quick match: a ticket for the chosen game; the inbox's `matched` item (the same
// long-poll as for invitations) seats me at the table the matchmaker opened.
const quick = { ticket: null };

async function findMatch() {
  const bots = $("quick-bots").checked ? { after_seconds: 30 } : null;
  const body = { game: $("game").value, players: Number($("quick-players").value), bots };
  quick.ticket = await players.openTicket(players.current(), body);
  showQuick();
}

async function stopLooking() {
  const ticket = quick.ticket;
  try {
    await players.cancelTicket(players.current(), ticket.id);
  } catch (error) {
    if (error.code !== "ticket_matched") throw error;
    return; // a match came first: its inbox item seats me
  }
  quick.ticket = null;
  showQuick("Stopped looking.");
}

function showQuick(said = "") {
  const ticket = quick.ticket;
  $("quick").hidden = !players.current();
  $("quick-find").hidden = Boolean(ticket);
  $("quick-stop").hidden = !ticket;
  const [least, most] = ticket?.players ?? [];
  const count = least === most ? least : `${least} to ${most}`;
  $("quick-say").textContent = ticket
    ? `Looking for a table of ${count} players (${ticket.game})`
      + `${ticket.bots ? "; bots fill in after 30 s" : ""}…` : said;
  document.body.dataset.ticket = ticket?.status ?? "";
}

// A ticket still waiting from before (this page reloaded): keep looking.
async function restoreTicket(player) {
  const { tickets } = await players.myTickets(player);
  quick.ticket = tickets.find((t) => t.status === "waiting") ?? null;
  showQuick();
}

$("quick-find").onclick = () => findMatch().catch(report);
$("quick-stop").onclick = () => stopLooking().catch(report);

$("guest").onclick = async () => {
  await players.signInAsGuest($("name").value || "guest").catch(report);
  await showPlayer().catch(report);
  await showBoard().catch(report);
};
$("my-games-refresh").onclick = () => showPlayer().catch(report);
$("forget").onclick = () => {
  players.forget();
  watching = null;
  $("my-games").hidden = true;
  showPlayer().catch(report);
  showBoard().catch(report);
};
showPlayer().catch(report);
setUp().catch(report);
