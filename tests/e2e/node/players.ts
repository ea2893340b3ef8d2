// A TypeScript client of tablestream's players: types from openapi-typescript, calls
// through openapi-fetch. Two guests sign up; one invites the other, who accepts; they
// play an Alebrijes game to its end with their player tokens only, read their inboxes
// and games, and the first is deleted. Prints a JSON summary. Compiled with --strict.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type AlebrijesCommand = components["schemas"]["AlebrijesCommand"];
type InboxItem = components["schemas"]["InboxItem"];

const api = createClient<paths>({ baseUrl: process.argv[2] });

function bearer(token: string): { Authorization: string } {
  return { Authorization: `Bearer ${token}` };
}

async function guest(name: string): Promise<{ id: string; token: string }> {
  const made = await api.POST("/v1/players", { body: { name } });
  if (!made.data) throw new Error(JSON.stringify(made.error));
  return { id: made.data.id, token: made.data.token };
}

async function main(): Promise<void> {
  const ana = await guest("ana ts");
  const bea = await guest("bea ts");
  const created = await api.POST("/v1/games", {
    headers: bearer(ana.token),
    body: {
      game: "alebrijes",
      seats: [
        { kind: "player", player: "me" },
        { kind: "player", player: bea.id },
      ],
      options: { seed: 6, rounds: 1 },
    },
  });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  const game_id = created.data.id;
  const accepted = await api.POST("/v1/games/{game_id}/seats/{seat}/accept", {
    params: { path: { game_id, seat: 1 } },
    headers: bearer(bea.token),
  });
  if (!accepted.data) throw new Error(JSON.stringify(accepted.error));
  const tokens = [ana.token, bea.token];
  let version = accepted.data.version;
  let moves = 0;
  for (; moves < 3000; moves++) {
    const spectator = await api.GET("/v1/alebrijes/{game_id}/view", {
      params: { path: { game_id }, query: { after: version - 1, wait: 10 } },
    });
    if (!spectator.data) throw new Error(`view: ${spectator.response.status}`);
    if (spectator.data.status === "finished") break;
    const seat = spectator.data.to_act[0];
    const mine = await api.GET("/v1/alebrijes/{game_id}/view", {
      params: { path: { game_id } },
      headers: bearer(tokens[seat]),
    });
    if (!mine.data) throw new Error(`view: ${mine.response.status}`);
    const command: AlebrijesCommand = mine.data.legal[0];
    const moved = await api.POST("/v1/alebrijes/{game_id}/commands", {
      params: { path: { game_id } },
      headers: bearer(tokens[seat]),
      body: command,
    });
    if (!moved.data) throw new Error(JSON.stringify(moved.error));
    version = moved.data.version;
  }
  const inbox = await api.GET("/v1/players/me/inbox", {
    params: { query: { after: 0 } },
    headers: bearer(bea.token),
  });
  if (!inbox.data) throw new Error(`inbox: ${inbox.response.status}`);
  const kinds = inbox.data.items.map((item: InboxItem) => item.kind);
  const games = await api.GET("/v1/players/me/games", {
    params: { query: { status: "finished" } },
    headers: bearer(ana.token),
  });
  if (!games.data) throw new Error(`games: ${games.response.status}`);
  const offered = await api.POST("/v1/games/{game_id}/rematch", {
    params: { path: { game_id } },
    headers: bearer(ana.token),
  });
  if (!offered.data) throw new Error(JSON.stringify(offered.error));
  const again = await api.POST("/v1/games/{game_id}/rematch", {
    params: { path: { game_id } },
    headers: bearer(bea.token),
  });
  const deleted = await api.DELETE("/v1/players/me", { headers: bearer(ana.token) });
  const profile = await api.GET("/v1/players/{player_id}", {
    params: { path: { player_id: ana.id } },
  });
  console.log(
    JSON.stringify({
      moves,
      kinds,
      finished: games.data.games.map((g) => g.id).includes(game_id),
      rematch: offered.data.id !== game_id && again.data?.id === offered.data.id,
      deleted: deleted.response.status,
      name: profile.data?.name,
    }),
  );
}

await main();
