// Drives tablestream's GET /v1/ws as the peers' drivers drive theirs (../peer/driver.js,
// ../peer-colyseus/driver.mjs): N games of two seats at once, each seat its own socket
// subscribed to its game; the acting seat sends its command and its move is done when
// its own pushed view shows it; the other seat plays when its own pushed view says so;
// one move in flight per game. Bounded by --seconds; only 127.0.0.1 is addressed.
//   node driver.mjs moves --games 10 --seconds 6 [--warmup 2] [--rate R] [--port P]
// Prints one JSON line: moves/s, move and push latency percentiles (push: an event's
// append time, its `at`, to its arrival at the other seat's socket; the same clock) and
// the driver's own CPU ms a move over the measured seconds.
import WebSocket from 'ws';
import { readFileSync } from 'node:fs';

const args = Object.fromEntries(process.argv.slice(3).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const PORT = +(args.port || 8000);
const HOST = `127.0.0.1:${PORT}`;
const GAMES = +(args.games || 10);
const SECONDS = +(args.seconds || 6);
const WARMUP = +(args.warmup || 2);
const RATE = args.rate ? +args.rate : null;
const ROUNDS = +(args.rounds || 20); // long games, so few creations inside a run
const now = () => Number(process.hrtime.bigint()) / 1e9;
const pct = (xs, p) => { if (!xs.length) return null; const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const round2 = (x) => (x == null ? null : Math.round(x * 100) / 100);
const st = { moves: 0, moveMs: [], pushMs: [], errors: 0 };
let measureFrom, deadline, slot = 0;

function mulberry(seed) {
  return () => { seed |= 0; seed = (seed + 0x6d2b79f5) | 0; let t = Math.imul(seed ^ (seed >>> 15), 1 | seed); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}

async function pace() {
  if (!RATE) return;
  const at = measureFrom - WARMUP + slot++ / RATE;
  if (at > now()) await new Promise((r) => setTimeout(r, (at - now()) * 1000));
}

async function create() {
  const body = { game: 'alebrijes', seats: [{ name: 'a' }, { name: 'b' }], options: { rounds: ROUNDS } };
  const r = await fetch(`http://${HOST}/v1/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`POST /v1/games ${r.status}`);
  return r.json();
}

function open(token, gameId) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${HOST}/v1/ws`, { headers: { Authorization: `Bearer ${token}` }, perMessageDeflate: false });
    socket.once('error', reject);
    socket.once('open', () => { socket.send(JSON.stringify({ type: 'subscribe', game_id: gameId })); resolve(socket); });
  });
}

// Play one game until it ends or the deadline passes.
async function play(rng) {
  const game = await create();
  const sockets = await Promise.all(game.seats.map((s) => open(s.token, game.id)));
  return new Promise((resolve) => {
    let finished = false;
    const done = () => { if (finished) return; finished = true; sockets.forEach((s) => s.close()); resolve(); };
    sockets.forEach((socket, seat) => {
      let flight = null; // {version: the view acted on, at: when the command went}
      let actedAt = -1; // the newest version this seat sent a command on
      socket.on('message', async (data) => {
        if (finished) return;
        if (now() > deadline) return done();
        const message = JSON.parse(data);
        if (message.type === 'event') {
          if (message.event.seat !== seat && now() > measureFrom) st.pushMs.push(performance.timeOrigin + performance.now() - message.event.at);
          return;
        }
        if (message.type === 'error') { st.errors++; flight = null; return; }
        if (message.type !== 'view') return;
        const view = message.view;
        if (flight && flight.at && view.version > flight.version) {
          if (now() > measureFrom) { st.moves++; st.moveMs.push(1000 * (now() - flight.at)); }
          flight = null;
        }
        if (view.status !== 'active') return done();
        const mine = view.to_act.includes(seat) && view.legal.length;
        if (flight || !mine || view.version <= actedAt) return;
        flight = { version: view.version, at: null };
        actedAt = view.version;
        await pace();
        if (finished) return;
        const command = view.legal[Math.floor(rng() * view.legal.length)];
        flight.at = now();
        socket.send(JSON.stringify({ type: 'command', game_id: game.id, command, expected_version: view.version }));
      });
      socket.on('close', done);
      socket.on('error', () => { st.errors++; done(); });
    });
    setTimeout(done, (deadline - now() + 10) * 1000).unref();
  });
}

// This process's CPU ms over the measured seconds (the load generator's own cost).
function cpuOverTheMeasure() {
  return new Promise((resolve) => {
    let from;
    setTimeout(() => { from = process.cpuUsage(); }, WARMUP * 1000);
    setTimeout(() => { const used = process.cpuUsage(from); resolve((used.user + used.system) / 1000); }, (WARMUP + SECONDS) * 1000);
  });
}

async function main() {
  measureFrom = now() + WARMUP;
  deadline = measureFrom + SECONDS;
  const cpu = cpuOverTheMeasure();
  await Promise.all([...Array(GAMES)].map(async (_, i) => {
    const rng = mulberry(1000 + i);
    while (now() < deadline) {
      try { await play(rng); } catch (e) { st.errors++; console.error(e.message); await new Promise((r) => setTimeout(r, 100)); }
    }
  }));
  console.log(JSON.stringify({ mode: 'tablestream-ws-moves', games: GAMES, rate: RATE, seconds: SECONDS,
    moves_per_s: Math.round((st.moves / SECONDS) * 10) / 10, errors: st.errors,
    move_p50_ms: round2(pct(st.moveMs, 0.5)), move_p99_ms: round2(pct(st.moveMs, 0.99)),
    push_p50_ms: round2(pct(st.pushMs, 0.5)), push_p99_ms: round2(pct(st.pushMs, 0.99)),
    driver_cpu_ms_per_move: st.moves ? round2((await cpu) / st.moves) : null,
    load1_after: readFileSync('/proc/loadavg', 'utf8').split(' ')[0] }));
  process.exit(0);
}
main();
