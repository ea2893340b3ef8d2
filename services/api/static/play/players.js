// The player layer: a guest player kept in this browser, and "my games" (those where I
// must act first). A guest's token is its only way back in, so it is kept in
// localStorage; forgetting it here loses the guest.
import { api } from "./api.js";

const KEY = "tablestream.player";

/** The player signed in here ({id, name, token}), or null. */
export function current() {
  try {
    return JSON.parse(localStorage.getItem(KEY));
  } catch {
    return null;
  }
}

/** Make a guest player named `name` and keep it here. */
export async function signInAsGuest(name) {
  const player = await api("POST", "/v1/players", { body: { name } });
  localStorage.setItem(KEY, JSON.stringify(player));
  return player;
}

export function forget() {
  localStorage.removeItem(KEY);
}

/** My games, my turn first (the server's order), up to `limit`. */
export function myGames(player, limit = 20) {
  return api("GET", `/v1/players/me/games?limit=${limit}`, { token: player.token });
}

/** Accept the invitation to `seat` of game `id`: answers the seat's token. */
export function accept(player, id, seat) {
  return api("POST", `/v1/games/${id}/seats/${seat}/accept`, { token: player.token });
}

/** Decline it: the seat opens for anyone to claim. */
export function decline(player, id, seat) {
  return api("POST", `/v1/games/${id}/seats/${seat}/decline`, { token: player.token });
}

/** Open a quick-match ticket ({game, players, bots, ...}): the matchmaker seats me. */
export function openTicket(player, body) {
  return api("POST", "/v1/matchmaking/tickets", { body, token: player.token });
}

/** Cancel my ticket; refused with `ticket_matched` when a match came first. */
export function cancelTicket(player, id) {
  return api("DELETE", `/v1/matchmaking/tickets/${id}`, { token: player.token });
}

/** My tickets, newest first (waiting ones among them). */
export function myTickets(player) {
  return api("GET", "/v1/players/me/tickets", { token: player.token });
}

/** A player's ratings, every game and rule set it played rated (public). */
export function ratings(playerId) {
  return api("GET", `/v1/players/${playerId}/ratings`);
}

/** A page of a game's leaderboard, best first; with `player`, the window around it. */
export function leaderboard(game, { player = null, cursor = null, limit = 10 } = {}) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (player) query.set("around", "me");
  else if (cursor) query.set("cursor", cursor);
  return api("GET", `/v1/leaderboards/${game}?${query}`, { token: player?.token });
}

/**
 * Call `onItems(items)` with each batch of new inbox items (invited, your_turn,
 * game_ended, ...) while `still()` holds: one long-poll open at a time, the way a
 * phone listens for all its games at once. Starts after the items there already are.
 */
export async function watchInbox(player, onItems, still) {
  let after = (await api("GET", "/v1/players/me/inbox?limit=1&after=0", { token: player.token }))
    .version;
  while (still()) {
    const answer = await api("GET", `/v1/players/me/inbox?after=${after}&wait=25`,
      { token: player.token }).catch(() => null);
    if (!answer) {
      await new Promise((resolve) => setTimeout(resolve, 2000)); // dropped: try again
      continue;
    }
    after = answer.version;
    if (answer.items.length && still()) await onItems(answer.items);
  }
}
