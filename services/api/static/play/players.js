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
