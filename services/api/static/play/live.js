// Live updates: the seat's view each time the game moves. One transport today,
// long-poll (GET .../view?after=V&wait=S answers as soon as the game passes version V,
// or 304 after S seconds); a caller only sees `follow`, so another transport can take
// its place without the table noticing.
import { api } from "./api.js";

const WAIT_SECONDS = 25;

/** Call `onView(view)` with the seat's view now and after every move, until the game
 * is over or `still()` turns false. Resolves with the last view. */
export async function follow(game, token, onView, still) {
  let view = await api("GET", `/v1/${game.kind}/${game.id}/view`, { token });
  while (still()) {
    await onView(view);
    if (view.status === "finished" || view.status === "cancelled") return view;
    view = await longPoll(game, token, view.version).catch(async (error) => {
      await pause(1000); // a dropped connection: try again shortly, as before
      if (!still()) throw error;
      return null;
    });
    view ??= await api("GET", `/v1/${game.kind}/${game.id}/view`, { token });
  }
  return view;
}

function longPoll(game, token, after) {
  const path = `/v1/${game.kind}/${game.id}/view?after=${after}&wait=${WAIT_SECONDS}`;
  return api("GET", path, { token });
}

function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
