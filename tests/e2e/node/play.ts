// A TypeScript client of tablestream: types from openapi-typescript, calls through
// openapi-fetch. It plays one game of each of the four, every seat human, each through
// its own typed routes (/v1/alebrijes/..., /v1/alien/...), sending commands from each
// seat's typed `legal` list, and prints one JSON summary a game. Compiled with --strict.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type AlebrijesCommand = Schemas["AlebrijesCommand"];

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

/** What the loop reads of any game's view: each game's typed view has these. */
interface Seen<C> {
  status: string;
  to_act: number[];
  version: number;
  legal: C[];
  result: Schemas["Result"] | null;
}

/** One game's typed routes: a view (no token: the spectator's) and a command. */
interface Table<C> {
  view(after: number, token?: string, until?: "turn"): Promise<Seen<C>>;
  send(token: string, command: C): Promise<number>;
}

function auth(token?: string): Record<string, string> {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

function need<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) throw new Error(`${answer.response.status} ${JSON.stringify(answer.error)}`);
  return answer.data;
}

const tables = {
  alebrijes: (game_id: string): Table<AlebrijesCommand> => ({
    view: async (after, token, until) =>
      need(await api.GET("/v1/alebrijes/{game_id}/view", {
        params: { path: { game_id }, query: { after, wait: 10, until } }, headers: auth(token),
      })),
    send: async (token, command) => {
      describe(command);
      const moved = need(await api.POST("/v1/alebrijes/{game_id}/commands", {
        params: { path: { game_id } }, headers: auth(token), body: command,
      }));
      return moved.version;
    },
  }),
  alien: (game_id: string): Table<Schemas["AlienCommand"]> => ({
    view: async (after, token, until) =>
      need(await api.GET("/v1/alien/{game_id}/view", {
        params: { path: { game_id }, query: { after, wait: 10, until } }, headers: auth(token),
      })),
    send: async (token, command) =>
      need(await api.POST("/v1/alien/{game_id}/commands", {
        params: { path: { game_id } }, headers: auth(token), body: command,
      })).version,
  }),
  alakablast: (game_id: string): Table<Schemas["AlakablastCommand"]> => ({
    view: async (after, token, until) =>
      need(await api.GET("/v1/alakablast/{game_id}/view", {
        params: { path: { game_id }, query: { after, wait: 10, until } }, headers: auth(token),
      })),
    send: async (token, command) =>
      need(await api.POST("/v1/alakablast/{game_id}/commands", {
        params: { path: { game_id } }, headers: auth(token), body: command,
      })).version,
  }),
  abluxxen: (game_id: string): Table<Schemas["AbluxxenCommand"]> => ({
    view: async (after, token, until) =>
      need(await api.GET("/v1/abluxxen/{game_id}/view", {
        params: { path: { game_id }, query: { after, wait: 10, until } }, headers: auth(token),
      })),
    send: async (token, command) =>
      need(await api.POST("/v1/abluxxen/{game_id}/commands", {
        params: { path: { game_id } }, headers: auth(token), body: command,
      })).version,
  }),
};

const seats: Schemas["HumanSeat"][] = ["ana", "bea", "cy"].map((name) => ({ kind: "human", name }));

/** Every seat sends a command from its legal list until the game is over. */
async function play<C>(game: string, created: Schemas["Created"], table: Table<C>): Promise<void> {
  const tokens = created.seats.map((seat) => seat.token ?? "");
  let version = created.version;
  for (let moves = 0; moves < 3000; moves++) {
    const spectator = await table.view(version - 1);
    if (spectator.status === "finished") {
      console.log(JSON.stringify({ game, status: spectator.status, moves, result: spectator.result }));
      return;
    }
    if (spectator.to_act.length === 0) {  // Alien's stacking window: wait for news
      version = spectator.version + 1;
      await table.view(spectator.version);
      continue;
    }
    const seat = spectator.to_act[0];
    // One request a turn: the seat's view once it must act.
    const mine = await table.view(spectator.version - 1, tokens[seat], "turn");
    if (mine.legal.length === 0) {  // the seat's turn went by meanwhile: look again
      version = mine.version;
      continue;
    }
    version = await table.send(tokens[seat], mine.legal[moves % mine.legal.length]);
  }
  throw new Error(`${game} did not finish`);
}

async function create(body: Schemas["CreateGame"]): Promise<Schemas["Created"]> {
  return need(await api.POST("/v1/games", { body }));
}

async function main(): Promise<void> {
  let created = await create({ game: "alebrijes", seats, options: { seed: 5, rounds: 1 } });
  await play("alebrijes", created, tables.alebrijes(created.id));
  // Every seat stacks at once here; a long window keeps its timer out of the way.
  created = await create({ game: "alien", seats, options: { seed: 5, stack_seconds: 30 } });
  await play("alien", created, tables.alien(created.id));
  created = await create({ game: "alakablast", seats, options: { seed: 5 } });
  await play("alakablast", created, tables.alakablast(created.id));
  created = await create({ game: "abluxxen", seats, options: { seed: 5 } });
  await play("abluxxen", created, tables.abluxxen(created.id));
}

await main();
