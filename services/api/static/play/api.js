// The public API, as any third-party client calls it: JSON in, JSON out. Every path
// used by /play is in /openapi.json.

/** One API call; a problem+json answer becomes an Error carrying its stable code. */
export async function api(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const json = body === undefined ? undefined : JSON.stringify(body);
  const response = await fetch(path, { method, headers, body: json });
  if (response.status === 304) return null; // long-poll: nothing new yet
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.detail ?? data.title ?? response.statusText);
    error.code = data.code;
    throw error;
  }
  return data;
}

/** The games and bot levels the server offers, from its own API document. */
export async function offered() {
  const spec = await api("GET", "/openapi.json");
  const schemas = spec.components.schemas;
  // Bot levels can come from plugins, so the document lists no fixed set: the built-in
  // ones are offered here (docs/bots.md).
  const bots = schemas.BotSeat.properties.bot.enum ?? ["random", "greedy", "ismcts"];
  // What "provisional" means, from the document too ("fewer than 10 rated games").
  const provisional = schemas.Rating?.properties.provisional.description ?? "few rated games";
  // CreateGame is a union of the games' bodies, told apart by `game`.
  return { games: Object.keys(schemas.CreateGame.discriminator.mapping), bots, provisional };
}

/** Send one command as the seat; the answer carries the seat's new view. */
export function command(game, token, body) {
  return api("POST", `/v1/${game.kind}/${game.id}/commands`, { token, body });
}

/** The seat's redacted events after `after` (the whole log once the game is over). */
export function events(gameId, token, after) {
  return api("GET", `/v1/games/${gameId}/events?after=${after}&limit=1000`, { token });
}
