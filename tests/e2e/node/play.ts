// A TypeScript client of tablestream: types from openapi-typescript, calls through
// openapi-fetch. It plays one Alebrijes game, every seat human, sending commands from
// each seat's typed `legal` list, and prints a JSON summary. Compiled with --strict.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type AlebrijesCommand = components["schemas"]["AlebrijesCommand"];

const api = createClient<paths>({ baseUrl: process.argv[2] });

/** What a command does, read through the discriminated union's narrowing. */
function describe(command: AlebrijesCommand): string {
  switch (command.type) {
    case "play":
      return `play ${command.cards.join(" ")} (ollin ${command.ollin ?? "none"})`;
    case "pass":
      return `pass, exchanging ${(command.exchange ?? []).length}`;
    case "exchange":
      return `exchange ${(command.cards ?? []).length}`;
  }
}

async function main(): Promise<void> {
  const created = await api.POST("/v1/games", {
    body: {
      game: "alebrijes",
      seats: [
        { kind: "human", name: "ana" },
        { kind: "human", name: "bea" },
        { kind: "human", name: "cy" },
      ],
      options: { seed: 5, rounds: 1 },
    },
  });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  const game_id = created.data.id;
  const tokens = created.data.seats.map((seat) => seat.token ?? "");
  let version = created.data.version;
  for (let moves = 0; moves < 3000; moves++) {
    const spectator = await api.GET("/v1/alebrijes/{game_id}/view", {
      params: { path: { game_id }, query: { after: version - 1, wait: 10 } },
    });
    if (!spectator.data) throw new Error(`view: ${spectator.response.status}`);
    const table = spectator.data;
    if (table.status === "finished") {
      console.log(JSON.stringify({ status: table.status, moves, result: table.result }));
      return;
    }
    const seat = table.to_act[0];
    const mine = await api.GET("/v1/alebrijes/{game_id}/view", {
      params: { path: { game_id } },
      headers: { Authorization: `Bearer ${tokens[seat]}` },
    });
    if (!mine.data) throw new Error(`view: ${mine.response.status}`);
    const command: AlebrijesCommand = mine.data.legal[moves % mine.data.legal.length];
    describe(command);
    const moved = await api.POST("/v1/alebrijes/{game_id}/commands", {
      params: { path: { game_id } },
      headers: { Authorization: `Bearer ${tokens[seat]}` },
      body: command,
    });
    if (!moved.data) throw new Error(JSON.stringify(moved.error));
    version = moved.data.version;
  }
  throw new Error("the game did not finish");
}

await main();
