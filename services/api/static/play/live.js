// Live updates: the seat's view each time the game moves. Two transports behind one
// function, `follow`:
// - the WebSocket `GET /v1/ws` (auth, then subscribe: the server pushes each new view,
//   preceded by the redacted events since the last one), preferred;
// - long-poll (`GET .../view?after=V&wait=S` answers as soon as the game passes version
//   V, or 304 after S seconds), when the socket cannot open or drops.
// `document.body.dataset.transport` says which one is in use.
import { api } from "./api.js";

const WAIT_SECONDS = 25;
const OPEN_SECONDS = 5; // a socket not subscribed by then: long-poll instead

/** Call `onView(view, events)` with the seat's view now and after every move, until the
 * game is over or `still()` turns false; `events` are the redacted events that came
 * with it, or null (then the caller reads them itself). Resolves with the last view. */
export async function follow(game, token, onView, still) {
  let last = null;
  const seen = async (view, events) => {
    last = view;
    await onView(view, events);
  };
  if (typeof WebSocket === "function") {
    last = await overSocket(game, token, seen, still).catch(() => last);
  }
  if (!still() || over(last)) return last;
  return longPoll(game, token, seen, still, last);
}

const over = (view) => view?.status === "finished" || view?.status === "cancelled";

// Resolves when the game is over or `still()` turns false; rejects when the socket
// cannot be used (not served, refused, dropped), with the last view drawn.
function overSocket(game, token, seen, still) {
  return new Promise((resolve, reject) => {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/v1/ws`);
    let subscribed = false;
    let pending = [];
    let last = null;
    let queue = Promise.resolve();
    const fail = () => {
      socket.close();
      queue.then(() => reject(last));
    };
    const timer = setTimeout(() => subscribed || fail(), OPEN_SECONDS * 1000);
    const watch = setInterval(() => {
      if (!still()) {
        socket.close();
        clearInterval(watch);
        resolve(last);
      }
    }, 500);
    socket.onopen = () => {
      socket.send(JSON.stringify({ type: "auth", ref: 1, token }));
      // after 0: every event so far comes first, so the log starts at the beginning.
      socket.send(JSON.stringify({ type: "subscribe", ref: 2, game_id: game.id, after: 0 }));
    };
    socket.onmessage = (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type === "subscribed") {
        subscribed = true;
        clearTimeout(timer);
        document.body.dataset.transport = "websocket";
      } else if (frame.type === "event") {
        pending.push(frame.event);
      } else if (frame.type === "view") {
        const events = pending;
        pending = [];
        last = frame.view;
        queue = queue.then(() => seen(frame.view, events));
        if (over(frame.view)) {
          queue.then(() => {
            clearInterval(watch);
            socket.close();
            resolve(frame.view);
          });
        }
      } else if (frame.type === "error") {
        fail();
      }
    };
    socket.onerror = fail;
    socket.onclose = () => {
      clearInterval(watch);
      if (!over(last) && still()) fail();
    };
  });
}

async function longPoll(game, token, seen, still, last) {
  document.body.dataset.transport = "long-poll";
  const path = `/v1/${game.kind}/${game.id}/view`;
  let view = last ?? (await api("GET", path, { token }));
  if (!last) await seen(view, null);
  while (still() && !over(view)) {
    const next = await api("GET", `${path}?after=${view.version}&wait=${WAIT_SECONDS}`, { token })
      .catch(async () => {
        await pause(1000); // a dropped connection: try again shortly
        return null;
      });
    if (next) {
      view = next;
      await seen(view, null);
    }
  }
  return view;
}

function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
