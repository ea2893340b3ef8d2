// tablestream's reference client: open a table against bots, play it to the end with
// live updates (long-poll), then step through its replay. It speaks only the public
// API, as any third-party client would: every call below is in /openapi.json.

const $ = (id) => document.getElementById(id);
const table = { kind: null, id: null, token: null, seat: 0, version: 0, view: null, busy: false,
  logged: 0 }; // the last event version in our log
let replay = { steps: [], version: 0 };

// One API call: JSON in, JSON out; a problem+json answer becomes an Error with its code.
async function api(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const json = body === undefined ? undefined : JSON.stringify(body);
  const response = await fetch(path, { method, headers, body: json });
  if (response.status === 304) return null; // long-poll: nothing new yet
  const data = await response.json();
  if (!response.ok) throw new Error(`${data.code}: ${data.detail}`);
  return data;
}

// The games and bots come from the API's own document, so new ones show up here.
async function setUp() {
  const spec = await api("GET", "/openapi.json");
  const schemas = spec.components.schemas;
  fill($("game"), schemas.CreateGame.properties.game.enum);
  fill($("bot"), schemas.SeatSpec.properties.bot.enum);
  const presets = { alebrijes: '{"rounds": 1}' }; // one round: a short game
  const preset = () => ($("options").value = presets[$("game").value] ?? "{}");
  $("game").onchange = preset;
  preset();
  $("start").onclick = () => start().catch(report);
}

function fill(select, values) {
  select.replaceChildren(...values.map((v) => new Option(v, v)));
}

function seatsWithBots(count) {
  const bot = { bot: $("bot").value };
  return [{ name: $("name").value || "you" }, ...Array.from({ length: count }, () => bot)];
}

async function start() {
  const body = {
    game: $("game").value,
    seats: seatsWithBots(Number($("bots").value)),
    options: JSON.parse($("options").value || "{}"),
  };
  sit(body.game, await api("POST", "/v1/games", { body }));
}

// Take seat 0 of a game just created (or forked) and follow it until it ends.
async function sit(kind, created) {
  Object.assign(table, { kind, id: created.id, token: created.seats[0].token, version: 0,
    view: null, logged: 0 });
  $("title").textContent = kind;
  $("game-id").textContent = created.id;
  $("log").replaceChildren();
  $("table").hidden = false;
  $("replay").hidden = true;
  await follow();
}

// Live updates by long-poll: each answer comes as soon as the game moves past
// `version`, or as a 304 after 25 s. Our own moves update the view at once (the
// command's answer carries it), so the poll only brings the others' moves.
async function follow() {
  const id = table.id;
  let view = await api("GET", `/v1/${table.kind}/${id}/view`, { token: table.token });
  while (id === table.id) {
    await show(view);
    if (view.status === "finished" || view.status === "cancelled") return openReplay();
    const path = `/v1/${table.kind}/${id}/view?after=${table.version}&wait=25`;
    view = (await api("GET", path, { token: table.token })) ?? table.view;
  }
}

// Views arrive from the long-poll and from our own commands: draw them one at a time.
let drawing = Promise.resolve();
function show(view) {
  drawing = drawing.then(() => draw(view));
  return drawing;
}

async function draw(view) {
  if (table.view && view.version < table.version) return; // an older answer came late
  const path = `/v1/games/${table.id}/events?after=${table.logged}&limit=1000`;
  const news = await api("GET", path, { token: table.token });
  news.events.forEach((event) => $("log").prepend(logLine(event, view)));
  table.logged = news.events.at(-1)?.version ?? table.logged;
  Object.assign(table, { view, version: view.version });
  document.body.dataset.status = view.status;
  $("status").className = view.status;
  $("status").textContent = describe(view);
  renderState($("state"), view.state, null);
  const mine = view.to_act.includes(table.seat);
  $("legal").replaceChildren(...view.legal.map((command) => moveButton(command)));
  if ($("autoplay").checked && mine && view.legal.length && !table.busy) {
    const pick = view.legal[Math.floor(Math.random() * view.legal.length)];
    table.busy = true; // one move at a time
    setTimeout(() => send(pick, true), 150);
  }
}

function describe(view) {
  const name = (seat) => `${view.seats[seat].name} (seat ${seat})`;
  if (view.status === "finished") {
    const { winners, scores } = view.result;
    return `finished: ${winners.map(name).join(" and ")} won; scores ${scores.join(" / ")}`;
  }
  const acting = view.to_act.map(name).join(", ") || "nobody";
  const yours = view.to_act.includes(table.seat) ? " (your turn)" : "";
  return `${view.status}, version ${view.version}: ${acting} to act${yours}`;
}

function moveButton(command) {
  const button = document.createElement("button");
  button.textContent = label(command);
  button.onclick = () => send(command);
  return button;
}

function label(command) {
  const { type, ...rest } = command;
  const words = Object.entries(rest).map(([k, v]) => `${k} ${[v].flat().join(" ")}`);
  return [type, ...words].join(" · ");
}

async function send(command, scheduled = false) {
  if (table.busy && !scheduled) return;
  table.busy = true;
  let moved;
  try {
    moved = await api("POST", `/v1/${table.kind}/${table.id}/commands`,
      { token: table.token, body: command });
  } catch (error) {
    report(error); // e.g. the game moved first: the long-poll brings the new view
  }
  table.busy = false;
  if (moved) await show(moved.view); // read-your-writes: no second request
}

// --- the replay: any version of the finished game, as any seat saw it then

async function openReplay() {
  const seats = table.view.seats.map((s) => new Option(`${s.name} (seat ${s.seat})`, s.seat));
  $("replay-seat").replaceChildren(new Option("a spectator", ""), ...seats,
    new Option("everyone (all hands)", "everyone"));
  $("replay-seat").value = String(table.seat);
  $("replay-export").href = `/v1/games/${table.id}/export`;
  $("replay").hidden = false;
  await load(table.version);
}

async function load(version) {
  const seat = $("replay-seat").value;
  const query = seat === "everyone" ? "everyone=true" : seat === "" ? "" : `seat=${seat}`;
  const answer = await api("GET", `/v1/games/${table.id}/replay?at=${version}&${query}`);
  const before = Math.max(0, ...answer.steps.filter((step) => step < answer.version));
  replay = { steps: answer.steps, version: answer.version };
  Object.assign(document.body.dataset, { replayVersion: answer.version, replaySeat: seat });
  $("replay-version").value = answer.version;
  const index = answer.steps.indexOf(answer.version) + 1;
  $("replay-shown").textContent =
    `version ${answer.version} (step ${index} of ${answer.steps.length}), ${answer.view.status}`;
  renderState($("replay-state"), answer.view.state, answer.everyone);
  const fresh = answer.events.filter((event) => event.version > before);
  $("replay-events").replaceChildren(...fresh.map((event) => logLine(event, answer.view)));
}

function step(by) {
  const { steps, version } = replay;
  const index = Math.min(steps.length - 1, Math.max(0, steps.indexOf(version) + by));
  return load(steps[index]).catch(report);
}

async function fork() {
  const bots = table.view.seats.length - 1;
  const body = { at: replay.version, seats: seatsWithBots(bots) };
  sit(table.kind, await api("POST", `/v1/games/${table.id}/fork`, { body }));
}

// --- drawing a view's state: any game's, generically (cards as chips)

function renderState(list, state, everyone) {
  const rows = Object.entries(state ?? {}).map(([key, value]) => [key, value, false]);
  // Everyone: each seat's own view adds what only that seat could see (its hand...).
  for (const seatView of everyone ?? []) {
    for (const [key, value] of Object.entries(seatView.state ?? {})) {
      if (JSON.stringify(value) !== JSON.stringify(state?.[key])) {
        rows.push([`${key} of seat ${seatView.seat}`, value, true]);
      }
    }
  }
  list.replaceChildren(...rows.flatMap(([key, value, hidden]) => {
    const term = document.createElement("dt");
    term.textContent = key;
    const detail = document.createElement("dd");
    detail.className = key === "hand" || hidden ? "mine" : "";
    detail.append(render(value));
    return [term, detail];
  }));
}

// Any game's state, generically: card codes as chips, lists of lists or objects one
// per seat, objects as "key value" pairs.
function render(value) {
  const box = document.createElement("span");
  const isCards = (v) => Array.isArray(v) && v.length && v.every((c) => typeof c === "string");
  const nested = (v) => Array.isArray(v) || v?.constructor === Object;
  if (isCards(value)) {
    box.append(...value.map(chip));
  } else if (Array.isArray(value) && value.length && value.every(nested)) {
    value.forEach((row, seat) => box.append(line(`${seat}: `, render(row))));
  } else if (value?.constructor === Object) {
    Object.entries(value).forEach(([key, item]) => box.append(` ${key} `, render(item)));
  } else {
    box.textContent = typeof value === "string" ? value : JSON.stringify(value);
  }
  return box;
}

function line(...parts) {
  const div = document.createElement("div");
  div.append(...parts);
  return div;
}

function chip(card) {
  const span = document.createElement("span");
  span.className = "card";
  span.textContent = card;
  return span;
}

function logLine(event, view) {
  const item = document.createElement("li");
  const { version, at, type, ...rest } = event;
  const who = rest.seat !== undefined ? `${view.seats[rest.seat]?.name ?? rest.seat}: ` : "";
  item.value = version;
  item.textContent = `${who}${type} ${JSON.stringify(rest)}`.slice(0, 160);
  return item;
}

function report(error) {
  const line = document.createElement("li");
  line.className = "error";
  line.textContent = String(error.message ?? error);
  $("log").prepend(line);
}

$("replay-first").onclick = () => load(replay.steps[0]).catch(report);
$("replay-prev").onclick = () => step(-1);
$("replay-next").onclick = () => step(+1);
$("replay-last").onclick = () => load(replay.steps.at(-1)).catch(report);
$("replay-jump").onclick = () => load(Number($("replay-version").value)).catch(report);
$("replay-seat").onchange = () => load(replay.version).catch(report);
$("replay-fork").onclick = () => fork().catch(report);
setUp().catch(report);
